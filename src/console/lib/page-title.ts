import { useEffect } from 'react';

export const PRODUCT_NAME = 'Provisioning Console';

/** Names the browser tab after the page: "Settings · Provisioning Console". */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} · ${PRODUCT_NAME}`;
  }, [page]);
}
