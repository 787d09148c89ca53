// Public face of the gateway client: environments, the two operations, their interpreted answers.
export * from './environments';
export * from './outcome';
export * from './client';
export * from './reportTemplate';
export * from './settings';
export { classifyTransportError } from './transport';
