export { FastSeparator, createFastSeparator, type FastSeparatorOptions } from './fast-separator';
