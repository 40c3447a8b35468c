/**
 * The admin handler contract. The router (`router.ts`) is built from `spec/admin/endpoints.ts`;
 * it enforces methods and optional features from the rows, parses the query as real Envoy does,
 * and calls the handler registered for the path.
 *
 * @module
 */
import type { ServerContext } from "../server/context.ts";

/** A parsed admin request. */
export interface AdminRequest {
  method: string;
  /** The path before `?`. */
  path: string;
  /** Percent-decoded query parameters; the first occurrence of a key wins; a bare key is `""`. */
  params: ReadonlyMap<string, string>;
  /** Every parameter in order, duplicates kept (for `/runtime_modify` and `/logging`). */
  pairs: ReadonlyArray<[string, string]>;
  /** The raw request, for handlers that stream or read headers. */
  raw: Request;
  /**
   * The body when the router has already read it as a form (a POST with a form content type and
   * no query string): `raw.body` is consumed then.
   */
  formBody?: string;
}

/** An admin endpoint handler. */
export type Handler = (req: AdminRequest, server: ServerContext) => Response | Promise<Response>;
