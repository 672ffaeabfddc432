/**
 * An export that cannot be made as asked, with the HTTP status the gateway answers and words for users:
 * 400 (a bad field), 404 (not this owner's), 409 (something must be run first, e.g. mastering).
 */
export class ExportRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 410,
    message: string,
  ) {
    super(message);
    this.name = 'ExportRefused';
  }
}
