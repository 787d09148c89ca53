// The callback listener: `paygate listen` and the editor's Callbacks view receive, show, keep, forward and
// replay a gateway's callbacks here (docs/callbacks.md).

export { startCallbackListener, MAX_CALLBACK_BODY, BODY_TIMEOUT_MS, type CallbackListener, type ListenerOptions } from './server';
export { CallbackStore, CALLBACKS_FILE, MAX_STORED_CALLBACKS } from './store';
export { entryLine, type CallbackEntry, type ForwardResult } from './entry';
export { sendToHandler, FORWARD_TIMEOUT_MS, type SendResult } from './send';
export { replayEntry } from './replay';
