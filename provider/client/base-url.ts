/**
 * What an API base URL may be: https, or http to a loopback host only (credentials travel with
 * every request), with the API prefix appended when the URL has no path. Apart from the HTTP
 * layer (`http.ts`) so that reading the configuration does not load the HTTP client.
 */
import * as ipaddr from "ipaddr.js";

/** The path prefix of version 1 of the API; part of every base URL. */
export const API_PREFIX = "/public/api/v1";

/** True when `host` (a URL hostname) is loopback: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare);
  return addr.range() === "loopback";
}

/**
 * Checks and normalises an API base URL: https, or http on a loopback host; appends
 * {@link API_PREFIX} when the URL has no path; drops a trailing slash.
 * Throws an Error naming the problem otherwise.
 */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`API URL "${raw}" is not a valid URL`);
  }
  if (url.username || url.password) {
    throw new Error("API URL must not carry credentials; set the public and secret keys instead");
  }
  if (url.protocol === "http:") {
    if (!isLoopbackHost(url.hostname)) {
      throw new Error(
        `API URL "${url.origin}" uses plain http:// to a non-loopback host; credentials would travel in clear. Use https://`,
      );
    }
  } else if (url.protocol !== "https:") {
    throw new Error(`API URL "${raw}" must use https:// (or http:// on a loopback host)`);
  }
  let pathname = url.pathname.replace(/\/+$/, "");
  if (pathname === "") pathname = API_PREFIX;
  return `${url.origin}${pathname}`;
}
