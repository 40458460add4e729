/**
 * One client's prepared statements in the session it shares with the other clients (see
 * session-server.ts). On PostgreSQL a named statement belongs to its connection; here every
 * connection is the same PGlite session, so two clients preparing `q1` would collide, and a
 * client that left would leave its statements behind. So each client's statement names get a
 * prefix of its own on the way in (in Parse, Bind, Describe and Close), and a client that goes
 * away has its statements closed. The unnamed statement needs neither: a client holds the session
 * from its Parse to its Sync. Statements prepared with SQL's PREPARE are not renamed; nothing
 * here uses them.
 */

const PARSE = 0x50; // 'P'
const BIND = 0x42; // 'B'
const DESCRIBE = 0x44; // 'D'
const CLOSE = 0x43; // 'C'
const SYNC = 0x53; // 'S'
const STATEMENT = 0x53; // 'S', in Describe and Close: a statement, not a portal

export class ClientStatements {
  private readonly prefix: Buffer;
  /** The names this client prepared, as the session knows them. */
  private readonly prepared = new Set<string>();

  constructor(clientId: number) {
    this.prefix = Buffer.from(`c${clientId}_`);
  }

  /**
   * The request (whole messages) with this client's statement names made its own; the request
   * itself when it names none, as most do.
   */
  rewrite(request: Buffer): Buffer {
    const pieces: Buffer[] = [];
    let copiedTo = 0;
    for (let offset = 0; offset + 5 <= request.length; ) {
      const type = request[offset] as number;
      const end = offset + 1 + request.readInt32BE(offset + 1);
      const at = this.nameAt(request, type, offset + 5);
      if (at !== undefined && request[at] !== 0) {
        const nameEnd = request.indexOf(0, at);
        const name = Buffer.concat([this.prefix, request.subarray(at, nameEnd)]);
        this.track(type, name.toString());
        const header = Buffer.alloc(5);
        header[0] = type;
        header.writeInt32BE(end - offset - 1 + this.prefix.length, 1);
        pieces.push(
          request.subarray(copiedTo, offset),
          header,
          request.subarray(offset + 5, at),
          name,
          request.subarray(nameEnd, end),
        );
        copiedTo = end;
      }
      offset = end;
    }
    if (copiedTo === 0) return request;
    pieces.push(request.subarray(copiedTo));
    return Buffer.concat(pieces);
  }

  /** A request that closes every statement this client prepared, or none when it prepared none. */
  closing(): Buffer | undefined {
    if (this.prepared.size === 0) return undefined;
    const messages = [...this.prepared].map((name) => {
      const body = Buffer.from(`S${name}\0`);
      const header = Buffer.alloc(5);
      header[0] = CLOSE;
      header.writeInt32BE(4 + body.length, 1);
      return Buffer.concat([header, body]);
    });
    this.prepared.clear();
    return Buffer.concat([...messages, Buffer.from([SYNC, 0, 0, 0, 4])]);
  }

  /** Where a message's statement name starts, for the messages that name one. */
  private nameAt(request: Buffer, type: number, body: number): number | undefined {
    switch (type) {
      case PARSE:
        return body;
      case BIND:
        // After the portal's name.
        return request.indexOf(0, body) + 1;
      case DESCRIBE:
      case CLOSE:
        return request[body] === STATEMENT ? body + 1 : undefined;
      default:
        return undefined;
    }
  }

  private track(type: number, name: string): void {
    if (type === PARSE) this.prepared.add(name);
    else if (type === CLOSE) this.prepared.delete(name);
  }
}
