export { ConsoleModule } from './console.module.js';
export { CONSOLE_CSP, CONSOLE_HEADERS, findConsoleDir, loadConsole, type ConsoleFile } from './console-assets.js';
