// A stand-in MP4 file: an ISO base media file that starts with its `ftyp` box, as every MP4 does, so that
// type sniffing and players' first check accept it. It carries a `free` box with a label (which makes
// each sample's bytes differ) and an empty `mdat`; it has no playable track (our choice: the sandbox
// never records video).
function box(type: string, payload: Uint8Array): Buffer {
  const out = Buffer.alloc(8 + payload.length);
  out.writeUInt32BE(out.length, 0);
  out.write(type, 4, 'latin1');
  out.set(payload, 8);
  return out;
}

export function sampleMp4(label = ''): Uint8Array {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]));
  return new Uint8Array(Buffer.concat([ftyp, box('free', Buffer.from(`idv-sandbox ${label}`, 'utf8')), box('mdat', new Uint8Array())]));
}
