// The callback listener: `paygate listen` and the editor's Callbacks view receive, show, keep, forward and
// replay a gateway's callbacks here (docs/callbacks.md).

export { startCallbackListener, DRAIN_MS, type CallbackListener } from './server';
export { CallbackStore, CALLBACKS_FILE, MAX_STORED_CALLBACKS } from './store';
export { entryLine, type CallbackEntry } from './entry';
export { ForwardToSelfError, HOP_HEADER, isOwnAddress } from './loop';
export { sendToHandler, type SendResult } from './send';
export { replayEntry } from './replay';
