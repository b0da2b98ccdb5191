// An incremental HTTP/1.1 response parser for the socket transport: the status line and the few headers a client
// needs, then a body framed by Content-Length, by chunked transfer coding, or by the connection's end. Bytes may
// arrive split anywhere; body bytes are handed on as slices of what arrived, never copied.

/** What the parser reports, in order: one head, body pieces, then the end. */
export interface ResponseEvents {
  head(status: number, contentType: string): void;
  data(chunk: Buffer): void;
  /** The body is complete; `reusable`: the connection may carry another request. */
  end(reusable: boolean): void;
}

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** A head or chunk-size line longer than this is not a response vigil can read. */
const MAX_HEAD = 64 * 1024;

type State =
  'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

export class ResponseParser {
  private state: State = 'head';
  /** Bytes of a head or a line not yet complete. */
  private pending: Buffer | null = null;
  /** Body bytes (or chunk bytes) still to come. */
  private left = 0;
  private reusable = true;

  constructor(private readonly events: ResponseEvents) {}

  /** True once the whole response was read. */
  get done(): boolean {
    return this.state === 'done';
  }

  /** True once the head was read. */
  get started(): boolean {
    return this.state !== 'head';
  }

  /** Feeds bytes from the socket; throws ProtocolError for a response that is not HTTP/1.x. */
  feed(input: Buffer): void {
    let buf = input;
    while (buf.length > 0 && this.state !== 'done') {
      switch (this.state) {
        case 'head':
        case 'chunk-size':
        case 'trailers': {
          const joined = this.pending === null ? buf : Buffer.concat([this.pending, buf]);
          const mark = this.state === 'head' ? HEAD_END : CRLF;
          const at = joined.indexOf(mark);
          if (at < 0) {
            if (joined.length > MAX_HEAD) throw new ProtocolError('response head too long');
            this.pending = joined;
            return;
          }
          this.pending = null;
          const line = joined.toString('latin1', 0, at);
          buf = joined.subarray(at + mark.length);
          if (this.state === 'head') this.readHead(line);
          else if (this.state === 'chunk-size') this.readChunkSize(line);
          else if (line === '') this.finish();
          break;
        }
        case 'length':
        case 'chunk-data': {
          const take = Math.min(this.left, buf.length);
          this.events.data(take === buf.length ? buf : buf.subarray(0, take));
          buf = buf.subarray(take);
          this.left -= take;
          if (this.left === 0) {
            if (this.state === 'length') this.finish();
            else this.state = 'chunk-end';
          }
          break;
        }
        case 'chunk-end': {
          // The CRLF after a chunk's data, possibly split across reads.
          const take = Math.min(2 - this.left, buf.length);
          for (let i = 0; i < take; i++)
            if (buf[i] !== CRLF[this.left + i]) throw new ProtocolError('chunk not followed by CRLF');
          this.left += take;
          buf = buf.subarray(take);
          if (this.left === 2) {
            this.left = 0;
            this.state = 'chunk-size';
          }
          break;
        }
        case 'until-close':
          this.events.data(buf);
          return;
      }
    }
    // Bytes after the end: the server sent more than one response (vigil never pipelines).
    if (buf.length > 0) this.reusable = false;
  }

  /** The connection closed: true when that completes the response (a body that runs to the close). */
  close(): boolean {
    if (this.state === 'until-close') {
      this.state = 'done';
      this.events.end(false);
    }
    return this.state === 'done';
  }

  private readHead(head: string): void {
    const lines = head.split('\r\n');
    const statusLine = lines[0] ?? '';
    const match = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(statusLine);
    if (match === null) throw new ProtocolError(`not an HTTP/1.x status line: ${statusLine.slice(0, 40)}`);
    const status = Number(match[2]);
    let keepAlive = match[1] === '1';
    let contentType = '';
    let length: number | null = null;
    let chunked = false;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] ?? '';
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value)) throw new ProtocolError(`bad content-length: ${value.slice(0, 40)}`);
        length = Number(value);
      } else if (name === 'transfer-encoding') chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
      else if (name === 'connection') {
        const tokens = value.toLowerCase();
        if (tokens.includes('close')) keepAlive = false;
        else if (tokens.includes('keep-alive')) keepAlive = true;
      } else if (name === 'content-type') contentType = value;
    }
    // An interim answer (100 Continue, 103 Early Hints): the real head follows.
    if (status >= 100 && status < 200) return;
    this.reusable = keepAlive;
    this.events.head(status, contentType);
    if (status === 204 || status === 304) this.finish();
    else if (chunked) this.state = 'chunk-size';
    else if (length !== null) {
      this.left = length;
      this.state = 'length';
      if (length === 0) this.finish();
    } else {
      this.reusable = false;
      this.state = 'until-close';
    }
  }

  private readChunkSize(line: string): void {
    const size = line.split(';', 1)[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new ProtocolError(`bad chunk size: ${size.slice(0, 40)}`);
    this.left = parseInt(size, 16);
    this.state = this.left === 0 ? 'trailers' : 'chunk-data';
  }

  private finish(): void {
    this.state = 'done';
    this.events.end(this.reusable);
  }
}
