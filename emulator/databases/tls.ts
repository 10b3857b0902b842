/**
 * A self-signed TLS certificate for the servers (`sslmode=require`), made with Node's crypto alone:
 * no system `openssl`, no certificate package. An ECDSA P-256 key; the certificate names
 * `localhost` and `127.0.0.1`, so a client that trusts it can even verify the host.
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** PEM texts of the server's certificate and private key. */
export interface TlsFiles {
  cert: string;
  key: string;
}

/** A new self-signed certificate, valid from yesterday for ten years. */
export function selfSignedCertificate(commonName = "mdb-emulator"): TlsFiles {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const name = seq(set(seq(oid("2.5.4.3"), tlv(0x0c, Buffer.from(commonName, "utf8")))));
  const from = new Date(Date.now() - 86_400_000);
  const until = new Date(from.getTime() + 10 * 365 * 86_400_000);
  const serial = randomBytes(16);
  serial[0] &= 0x7f; // positive
  const subjectAltName = seq(
    oid("2.5.29.17"),
    tlv(0x04, seq(tlv(0x82, Buffer.from("localhost")), tlv(0x87, Buffer.from([127, 0, 0, 1])))),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(from), utcTime(until)),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, seq(subjectAltName)),
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n");
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${body}-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const seq = (...content: Buffer[]) => tlv(0x30, ...content);
const set = (...content: Buffer[]) => tlv(0x31, ...content);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [a * 40 + b];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, "").slice(2, 14) + "Z";
  return tlv(0x17, Buffer.from(text, "ascii"));
}
