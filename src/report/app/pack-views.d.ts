/** The installed packs' report views, generated when the app is bundled (src/report/bundle.ts). */
declare module 'crucible:pack-views' {
  export function registerPackViews(kit: import('./view-kit.js').ViewKit): void;
}
