// Calls to the server's JSON API (/api/...; docs/web.md documents each endpoint). Every error the server
// sends is {"error": message}: it becomes an ApiError with that message, shown to the person as it is.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// One id per page: the server's "channel" lets a newer background check replace an older one.
export const PAGE_ID = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).slice(0, 36);

async function answer(response, asFile = false) {
  const type = response.headers.get("content-type") || "";
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (type.includes("json")) {
      try {
        message = (await response.json()).error || message;
      } catch {
        /* keep the status line */
      }
    }
    throw new ApiError(message, response.status);
  }
  return type.includes("json") && !asFile ? response.json() : response.blob();
}

export async function get(path, { signal } = {}) {
  return answer(await fetch(`/api/${path}`, { signal, headers: { Accept: "application/json" } }));
}

// `file`: the answer is a file to save (a Blob), whatever its type (an exported .json is not an answer).
export async function post(path, body, { signal, file = false } = {}) {
  const response = await fetch(`/api/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return answer(response, file);
}

// A file as it is (any puzzle format, or an image for the designer): the body is the file's bytes.
export async function upload(path, file, params = {}, { signal } = {}) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}${query ? `?${query}` : ""}`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream" },
    body: file,
    signal,
  });
  return answer(response);
}

export function isAbort(error) {
  return error && (error.name === "AbortError" || (error instanceof ApiError && (error.status === 409 || error.status === 499)));
}
