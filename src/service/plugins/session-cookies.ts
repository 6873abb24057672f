/**
 * The session cookie and the CSRF checks a session's changes pass. Over HTTPS the cookie is
 * `__Host-sid` (Secure, no Domain, Path=/): no sibling site can set or shadow it; over plain
 * HTTP (development on localhost) it is `sid`, without Secure. HttpOnly and SameSite=Strict
 * either way, and no Max-Age: it ends with the browser, and the server ends it sooner.
 */
import type { FastifyRequest } from 'fastify';
import { CONSOLE_REQUEST_HEADER } from '../../contract/request-headers';
import { HttpProblem } from '../http-problem';

const SECURE_NAME = '__Host-sid';
const PLAIN_NAME = 'sid';
/** Longer than any token this service makes (43 characters): not worth a lookup. */
const MAX_TOKEN_LENGTH = 100;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class SessionCookies {
  readonly name: string;
  private readonly secure: boolean;

  /** `publicUrl`: where people reach the service (`PUBLIC_URL`); its scheme picks the cookie. */
  constructor(private readonly publicUrl: URL | undefined) {
    this.secure = publicUrl?.protocol === 'https:';
    this.name = this.secure ? SECURE_NAME : PLAIN_NAME;
  }

  /** The session token in a Cookie header, if it holds one of this service's. */
  tokenOf(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    for (const part of header.split(';')) {
      const at = part.indexOf('=');
      if (at < 0 || part.slice(0, at).trim() !== this.name) continue;
      const value = part.slice(at + 1).trim();
      return value.length > 0 && value.length <= MAX_TOKEN_LENGTH && /^[\w-]+$/.test(value)
        ? value
        : undefined;
    }
    return undefined;
  }

  /** The Set-Cookie header that starts a session. */
  set(token: string): string {
    return `${this.name}=${token}; ${this.attributes()}`;
  }

  /** The Set-Cookie header that drops it from the browser. */
  cleared(): string {
    return `${this.name}=; ${this.attributes()}; Max-Age=0`;
  }

  /** This service's origin as browsers name it: PUBLIC_URL's, else the request's own. */
  serviceOrigin(request: FastifyRequest): string {
    return this.publicUrl?.origin ?? `${request.protocol}://${request.host}`;
  }

  private attributes(): string {
    return `Path=/; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`;
  }
}

/**
 * Why a request made with the session cookie may not change anything, or undefined: it must
 * say it comes from the console (a header no cross-site form or image can send), must not be
 * cross-site, and sends JSON when it sends a body.
 */
export function sessionRequestRefusal(
  request: FastifyRequest,
  serviceOrigin: string,
): HttpProblem | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  if (request.headers[CONSOLE_REQUEST_HEADER.name] !== CONSOLE_REQUEST_HEADER.value) {
    return csrfRefused(
      `A change made with the session cookie must carry the header X-Requested-With: ${CONSOLE_REQUEST_HEADER.value}`,
      'x-requested-with',
    );
  }
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) {
    if (fetchSite === 'cross-site') {
      return csrfRefused(
        'A change made with the session cookie may not come from another site',
        'sec-fetch-site',
      );
    }
  } else if (request.headers.origin !== serviceOrigin) {
    return csrfRefused(
      `A change made with the session cookie must come from this service's origin (${serviceOrigin})`,
      'origin',
    );
  }
  const type = request.headers['content-type'];
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    return HttpProblem.of(
      'unsupported_media_type',
      'A change made with the session cookie must send JSON',
      {
        errors: [{ path: 'content-type', message: `expected application/json, got ${type}` }],
      },
    );
  }
  return undefined;
}

function csrfRefused(detail: string, header: string): HttpProblem {
  return HttpProblem.of('csrf_refused', detail, {
    errors: [{ path: header, message: detail }],
  });
}
