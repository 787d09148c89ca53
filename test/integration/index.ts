// Mocha runner for the extension host (owned by the real-editor work; placeholder).
export async function run(): Promise<void> {}
