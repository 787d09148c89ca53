import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

// Where the "Add environment…" entry goes in a settings JSON text. Read with jsonc-parser, the reader VS
// Code itself uses for settings (comments, trailing commas). No `vscode` import: unit-tested under Node.

export const ENVIRONMENT_SNIPPET = [
  '{',
  '\t"name": "${1:staging}",',
  '\t"baseUrl": "${2:https://gateway.example.com/paygate}",',
  '\t"reportBaseUrl": "${3:https://reports.example.com/paygate}",',
  '\t"endpointId": "${4:endpoint id from your support manager}",',
  '\t"consumerKey": "${5:merchant login}",',
  '\t"production": ${6|false,true|}',
  '}',
].join('\n');

/** Where and what to insert into a settings JSON text so it gains one more environment entry. */
export interface Insertion {
  offset: number;
  before: string;
  after: string;
  /** Put before each line of the entry (the editor adds the insertion line's own indentation). */
  indent: string;
}

export function environmentInsertion(text: string): Insertion | undefined {
  if (text.trim() === '') return { offset: 0, before: '{\n\t"paygate.environments": [\n', after: '\n\t]\n}\n', indent: '\t\t' };
  const root: Node | undefined = parseTree(text);
  if (!root || root.type !== 'object') return undefined;
  const array = findNodeAtLocation(root, ['paygate.environments']);
  if (array && array.type === 'array') {
    const last = array.children?.[array.children.length - 1];
    return last
      ? { offset: last.offset + last.length, before: ',\n', after: '', indent: '' }
      : { offset: array.offset + 1, before: '\n', after: '\n', indent: '\t' };
  }
  if (array) return undefined; // present but not an array: the user has to look at it
  const lastProp = root.children?.[root.children.length - 1];
  const offset = lastProp ? lastProp.offset + lastProp.length : root.offset + 1;
  return { offset, before: `${lastProp ? ',' : ''}\n"paygate.environments": [\n`, after: '\n]', indent: '\t' };
}
