/**
 * @module shared/plugin/protocol-failure
 * A request that got no usable answer from a protocol plugin: the message
 * says what happened (timeout, refused, bad gzip, …), the code names it for
 * the fetch record.
 */
export class ProtocolFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
