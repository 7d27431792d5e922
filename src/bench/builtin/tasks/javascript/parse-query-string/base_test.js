const assert = require('node:assert');

function test() {
  let candidate = parseQuery;
  assert.deepEqual(candidate("a=1&b=2"),{"a": "1", "b": "2"});
  assert.deepEqual(candidate("?x=hello%20world"),{"x": "hello world"});
  assert.deepEqual(candidate("flag&k=v"),{"flag": "", "k": "v"});
  assert.deepEqual(candidate("t=1&t=2"),{"t": ["1", "2"]});
  assert.deepEqual(candidate(""),{});
}

test();
