function toSnakeCase(name) {
  return name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).replace(/^_/, '');
}
