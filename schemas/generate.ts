// Writes the JSON Schemas derived from the core's zod schemas. Run with `npm run schemas`;
// test/unit/gateway-schema.test.ts fails when the committed file and the zod schema disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportTemplateJsonSchemaText } from '../src/core/gateway/reportTemplate';

const target = join(__dirname, 'report-template.schema.json');
writeFileSync(target, reportTemplateJsonSchemaText());
process.stdout.write(`wrote ${target}\n`);
