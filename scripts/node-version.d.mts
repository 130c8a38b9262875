export function nodeSupported(version: string): boolean;
export function unsupportedMessage(version: string): string;
