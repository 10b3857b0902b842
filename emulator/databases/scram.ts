/**
 * SCRAM-SHA-256 password verifiers, as PostgreSQL stores them in `pg_authid` (RFC 5802, RFC 7677):
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, base64. `ALTER ROLE … PASSWORD`
 * takes such a verifier as it is, so the emulator's state keeps what each server must accept
 * without ever holding a password, and a restart can give a server back its password.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";

/** PostgreSQL's default `scram_iterations`. */
export const SCRAM_ITERATIONS = 4096;

/**
 * The verifier of `password`: what PostgreSQL would store for `ALTER ROLE … PASSWORD 'password'`
 * with `password_encryption = scram-sha-256`. `salt` (16 random bytes by default) and `iterations`
 * are parameters for tests.
 */
export function scramVerifier(
  password: string,
  salt: Buffer = randomBytes(16),
  iterations = SCRAM_ITERATIONS,
): string {
  const salted = pbkdf2Sync(Buffer.from(saslPrep(password), "utf8"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/** True when `verifier` is a SCRAM-SHA-256 verifier in PostgreSQL's form (safe to quote in SQL). */
export function isScramVerifier(verifier: string): boolean {
  return /^SCRAM-SHA-256\$\d+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/.test(verifier);
}

// RFC 3454 tables SASLprep (RFC 4013) uses: C.1.2 non-ASCII spaces (mapped to a space), B.1
// characters mapped to nothing, and the prohibited output (C.2 to C.9, in outline).
const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;
// eslint-disable-next-line no-misleading-character-class -- the table is made of combining marks
const MAPPED_TO_NOTHING = /[\u00AD\u034F\u1806\u180B-\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g;
const PROHIBITED =
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  /[\u0000-\u001F\u007F-\u009F\u06DD\u070F\u180E\u200E\u200F\u202A-\u202E\u2028\u2029\u2060-\u2063\u206A-\u206F\u2FF0-\u2FFB\uD800-\uDFFF\uE000-\uF8FF\uFDD0-\uFDEF\uFEFF\uFFF9-\uFFFF]/u;

/**
 * The password as PostgreSQL prepares it before hashing: ASCII as it is; otherwise SASLprep's
 * mapping and NFKC normalisation, or the raw string when the result holds a prohibited character
 * (PostgreSQL then hashes the raw bytes, and so does this).
 */
function saslPrep(password: string): string {
  // eslint-disable-next-line no-control-regex -- pure ASCII, control characters included
  if (/^[\u0000-\u007F]*$/.test(password)) return password;
  const prepared = password.replace(NON_ASCII_SPACE, " ").replace(MAPPED_TO_NOTHING, "").normalize("NFKC");
  return PROHIBITED.test(prepared) ? password : prepared;
}
