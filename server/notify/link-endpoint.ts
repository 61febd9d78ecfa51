/**
 * `/mail/act/<token>`: the one-click links of notification e-mails. GET shows the confirmation
 * page and changes nothing (mail scanners prefetch links); POST applies the link once
 * (link-use.ts) and shows the result. Other methods: 405.
 */
import type { RequestListener } from 'node:http';
import { sendJson } from '../http/probes.ts';
import { confirmPage, resultPage } from './link-page.ts';
import { inspectLink, useLink, type LinkDeps } from './link-use.ts';
import { MAIL_LINKS_BASE } from './links.ts';

export { MAIL_LINKS_BASE };

/** The token in a link's path ('' when it is not decodable: refused as a bad signature). */
function tokenOf(url: string): string {
  try {
    return decodeURIComponent(url.split('?')[0].slice(MAIL_LINKS_BASE.length));
  } catch {
    return '';
  }
}

export function mailLinkEndpoint(deps: LinkDeps): RequestListener {
  return async (req, res) => {
    const token = tokenOf(req.url ?? '');
    if (req.method === 'GET' || req.method === 'HEAD') return confirmPage(req, res, await inspectLink(deps, token));
    if (req.method === 'POST') {
      req.resume(); // the form sends nothing the link needs
      return resultPage(req, res, await useLink(deps, token));
    }
    res.setHeader('allow', 'GET, POST');
    sendJson(res, 405, { error: { code: 'link.method', message: 'open the link (GET), then confirm (POST)' } });
  };
}
