// Public face of the gateway client: environments, the two operations, their interpreted answers.
export * from './environments';
export * from './outcome';
export * from './createAnswer';
export * from './reportAnswer';
export * from './client';
export * from './prepare';
export * from './reportFile';
export * from './reportTemplate';
export * from './settings';
export * from './outcomes';
