/**
 * A ZIP archive whose entries are stored uncompressed: all an XLSX file needs, in a few lines
 * instead of a zip library in the bundle. Query results are small (hundreds of rows), so the
 * missing compression costs little.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** 1980-01-01 00:00, the earliest date a ZIP entry can carry: the files are made now, no date says more. */
const DOS_DATE = 0x21;
/** Bit 11: entry names are UTF-8. */
const UTF8_NAMES = 0x0800;

interface Entry {
  name: Uint8Array;
  data: Uint8Array;
  crc: number;
  offset: number;
}

function header(size: number, fill: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(size);
  fill(new DataView(bytes.buffer));
  return bytes;
}

/** The archive of these files, in this order (an XLSX reader wants [Content_Types].xml first). */
export function zipStored(files: Array<{ path: string; text: string }>): Blob {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const entries: Entry[] = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.path);
    const data = encoder.encode(file.text);
    const entry = { name, data, crc: crc32(data), offset };
    const local = header(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, UTF8_NAMES, true);
      v.setUint16(12, DOS_DATE, true);
      v.setUint32(14, entry.crc, true);
      v.setUint32(18, data.length, true);
      v.setUint32(22, data.length, true);
      v.setUint16(26, name.length, true);
    });
    parts.push(local, name, data);
    entries.push(entry);
    offset += local.length + name.length + data.length;
  }
  const directoryStart = offset;
  for (const entry of entries) {
    const central = header(46, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, 20, true);
      v.setUint16(8, UTF8_NAMES, true);
      v.setUint16(14, DOS_DATE, true);
      v.setUint32(16, entry.crc, true);
      v.setUint32(20, entry.data.length, true);
      v.setUint32(24, entry.data.length, true);
      v.setUint16(28, entry.name.length, true);
      v.setUint32(42, entry.offset, true);
    });
    parts.push(central, entry.name);
    offset += central.length + entry.name.length;
  }
  const end = header(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, entries.length, true);
    v.setUint16(10, entries.length, true);
    v.setUint32(12, offset - directoryStart, true);
    v.setUint32(16, directoryStart, true);
  });
  parts.push(end);
  return new Blob(parts as BlobPart[], { type: 'application/zip' });
}
