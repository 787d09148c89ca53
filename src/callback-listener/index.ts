// The callback listener: `paygate listen` and the editor's Callbacks view receive, show, keep, forward and
// replay a gateway's callbacks here (docs/callbacks.md).

export { startCallbackListener, type CallbackListener } from './server';
export { CallbackStore, CALLBACKS_FILE, MAX_STORED_CALLBACKS } from './store';
export { entryLine, type CallbackEntry } from './entry';
export { sendToHandler, type SendResult } from './send';
export { replayEntry } from './replay';
