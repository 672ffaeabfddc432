/** An expected failure a use-case reports; the filter turns it into an HTTP answer with this status. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
