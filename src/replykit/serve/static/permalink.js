// The permalink: the message, compressed with deflate (zlib format) and written in
// base64url, kept in the URL fragment, which a browser never sends to a server.
// Fragment: #m=<message>&p=<profile>&c=<compat>&l=<locale>.

// Longest fragment written or read; a longer message gets no link (most browsers and
// chat apps cut URLs somewhere past 8000 characters), a longer link is not read.
export const MAX_FRAGMENT = 8000;
// Largest message written to or read from a link, in UTF-8 bytes: the server's largest
// request body (2 MiB). Deflate can grow 8000 characters into megabytes: the reader
// stops as soon as the output passes this, before it holds more.
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function compress(text) {
  return toBase64url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate")));
}

// The message a token holds; throws when it is over MAX_MESSAGE_BYTES, read no further.
export async function decompress(token) {
  const input = new Blob([fromBase64url(token)]).stream();
  const reader = input.pipeThrough(new DecompressionStream("deflate")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_MESSAGE_BYTES) {
      await reader.cancel();
      throw new Error(`the linked message is over ${MAX_MESSAGE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// The fragment for a state {text, profile, compat, locale}: {fragment} or {tooLong}.
export async function encodeState(state) {
  const size = new TextEncoder().encode(state.text).length;
  if (size > MAX_MESSAGE_BYTES) return { tooLong: `${size} bytes; the limit is ${MAX_MESSAGE_BYTES}` };
  const params = new URLSearchParams();
  params.set("m", await compress(state.text));
  params.set("p", state.profile);
  params.set("c", state.compat);
  params.set("l", state.locale);
  const fragment = params.toString();
  if (fragment.length > MAX_FRAGMENT) {
    return { tooLong: `${fragment.length} characters compressed; the limit is ${MAX_FRAGMENT}` };
  }
  return { fragment };
}

// The state a fragment holds, or null when it holds none (or a broken one).
export async function decodeState(hash) {
  const fragment = hash.replace(/^#/, "");
  const params = new URLSearchParams(fragment);
  const token = params.get("m");
  if (token === null) return null;
  if (fragment.length > MAX_FRAGMENT) {
    return { error: `the link is over ${MAX_FRAGMENT} characters` };
  }
  try {
    return {
      text: await decompress(token),
      profile: params.get("p") || "client",
      compat: params.get("c") || "",
      locale: params.get("l") || "en",
    };
  } catch (error) {
    return { error: String(error) };
  }
}
