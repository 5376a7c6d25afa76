// The permalink: the message, compressed with deflate (zlib format) and written in
// base64url, kept in the URL fragment, which a browser never sends to a server.
// Fragment: #m=<message>&p=<profile>&c=<compat>&l=<locale>.

// Longest fragment written; a longer message gets no link (most browsers and chat
// apps cut URLs somewhere past 8000 characters).
export const MAX_FRAGMENT = 8000;

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

export async function decompress(token) {
  const bytes = await pipe(fromBase64url(token), new DecompressionStream("deflate"));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

// The fragment for a state {text, profile, compat, locale}: {fragment} or {tooLong}.
export async function encodeState(state) {
  const params = new URLSearchParams();
  params.set("m", await compress(state.text));
  params.set("p", state.profile);
  params.set("c", state.compat);
  params.set("l", state.locale);
  const fragment = params.toString();
  if (fragment.length > MAX_FRAGMENT) return { tooLong: fragment.length };
  return { fragment };
}

// The state a fragment holds, or null when it holds none (or a broken one).
export async function decodeState(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("m");
  if (token === null) return null;
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
