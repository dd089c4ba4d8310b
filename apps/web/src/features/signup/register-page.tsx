import { Center, Loader } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';

/**
 * Where /register leads (core-inbox §1): a partner build sets VITE_PARTNER_REGISTER_URL at
 * build time and registration happens on the partner's site; otherwise the sign-up stepper.
 * Only an http(s) address is followed, so a mistyped setting cannot run script.
 */
export function partnerRegisterUrl(
  configured: string | undefined = import.meta.env.VITE_PARTNER_REGISTER_URL,
) {
  const value = typeof configured === 'string' ? configured.trim() : '';
  return /^https?:\/\//i.test(value) ? value : null;
}

/** /register: passes straight on, replacing itself so Back does not bounce here again. */
export function RegisterPage() {
  const navigate = useNavigate();
  useEffect(() => {
    const external = partnerRegisterUrl();
    if (external) window.location.replace(external);
    else void navigate({ to: '/sign-up', replace: true });
  }, [navigate]);
  return (
    <Center mih="100vh">
      <Loader aria-hidden />
    </Center>
  );
}
