/**
 * `/configs/:id` and `/configs/live`: loads the config and its schema, then hands them to
 * the editor view (editing/config-editor-view.tsx).
 *
 * This module is the editor route's chunk (React.lazy in app/routes.tsx); Monaco's chunk is
 * fetched from here too, alongside the config rather than after it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { configJsonSchema } from '../../../configs/config-schema';
import { Spinner } from '../../components/spinner';
import { ApiProblem, describeError, isNotOffered } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { configsKeys } from '../../api/config-keys';
import { LIVE, useConfig } from '../../api/get-config';
import { useConfigSchema } from './api/get-config-schema';
import { preloadConfigEditor } from '../../editor/lazy-monaco';
import { ConfigEditorView } from './editing/config-editor-view';

export function ConfigPage() {
  const { id = '' } = useParams();
  useEffect(preloadConfigEditor, []);
  // A new config (e.g. the draft a save created) is a new page: state starts afresh.
  return <ConfigPageContent key={id} routeId={id} />;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404;
}

function loadFailure(routeId: string, error: unknown): string {
  if (routeId === LIVE && isNotOffered(error)) {
    return 'This server does not offer the live config (GET /configs/live), so it cannot be edited here.';
  }
  if (isNotFound(error)) {
    return `There is no config ${routeId} in this account.`;
  }
  return `The config could not be loaded. ${describeError(error)}`;
}

function ConfigPageContent({ routeId }: { routeId: string }) {
  const queryClient = useQueryClient();
  const config = useConfig(routeId);
  const schema = useConfigSchema();
  const loaded = config.data;
  // The live config is also the config of its id (a draft made from it names that id).
  useEffect(() => {
    if (routeId === LIVE && loaded) {
      queryClient.setQueryData(configsKeys.detail(loaded.id), (cached) => cached ?? loaded);
    }
  }, [routeId, loaded, queryClient]);
  const fallbackTitle = routeId === LIVE ? 'Live config' : 'Config';
  usePageTitle(config.data?.label ?? fallbackTitle);

  // A failed background refetch keeps the editor (and the person's edits), unless the
  // config is gone.
  if (config.isError && (config.data === undefined || isNotFound(config.error))) {
    return (
      <div className="page">
        <h1>{fallbackTitle}</h1>
        <div role="alert" className="alert alert-error">
          <p>{loadFailure(routeId, config.error)}</p>
          <p>
            <Link to="/configs">Back to the configs</Link>
          </p>
        </div>
      </div>
    );
  }
  if (config.data === undefined || schema.isPending) {
    return (
      <div className="page" aria-busy="true">
        <h1>{config.data?.label ?? fallbackTitle}</h1>
        <Spinner label="Loading the config…" />
      </div>
    );
  }
  return (
    <ConfigEditorView
      routeId={routeId}
      initial={config.data}
      schema={schema.data ?? configJsonSchema}
    />
  );
}
