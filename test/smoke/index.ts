// The smoke suite's runner: the integration suite's mocha runner, bundled beside the smoke tests so it
// finds them (it loads every *.test.js in its own folder).
export { run } from '../integration/index';
