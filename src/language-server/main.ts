import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

// dist/language-server.js: the transport comes from the command line (--node-ipc from the VS Code
// client, --stdio, --socket=N or --pipe=NAME from any other).
startServer(createConnection(ProposedFeatures.all));
