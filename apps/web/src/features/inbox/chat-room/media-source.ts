import { providerMediaHosts } from '@app/contracts';

/** True when the host is a messaging provider's media host or one of its subdomains. */
function isProviderHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return providerMediaHosts.some((provider) => host === provider || host.endsWith(`.${provider}`));
}

/**
 * How a media link may be used: as it is (our own signed `/api/media/` links, or any
 * other web address), resolved first through the media call (a messaging provider's
 * host, which needs the channel's credentials), or not at all (a scheme that must never
 * load, such as `javascript:`).
 */
export function mediaSourceOf(
  url: string,
  base: string = window.location.href,
): 'own' | 'provider' | 'refused' {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return 'refused';
  }
  if (parsed.protocol === 'blob:') return 'own';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'refused';
  return isProviderHost(parsed.hostname) ? 'provider' : 'own';
}
