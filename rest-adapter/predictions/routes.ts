import type { Route } from '../core/route';
import * as schemas from './schemas';

export const API_VERSION = '1.0.0';
export const DOCS_PATH = '/api/docs/';
export const OPENAPI_PATH = '/api/openapi.json';

const AUTH_LABEL = { apiKey: 'api_key', adminKey: 'admin_key', none: 'none' } as const;

interface ServiceInfoData {
  viewer: { prefix: string; name: string; plan: string; role: string };
  plans: { code: string; name: string; dailyLimit: number | null }[];
  footballData: { competitions: number; teams: number; matches: number; finishedMatches: number; scheduledMatches: number; latestResultDate: string | null };
}

/** The prediction API's route table: one entry per documented path (contract: prediction-api.md §4). */
export const predictionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/',
    summary: 'Service information and the list of endpoints',
    description: 'What this API offers, the calling key\'s plan, the extent of the football data, and every endpoint with the credential it needs.',
    tags: ['Service'],
    security: 'apiKey',
    operation: 'ServiceInfo',
    response: { description: 'Service information', schema: schemas.serviceInfo },
    respond: (data: ServiceInfoData) => ({
      kind: 'json',
      body: {
        service: 'Match Prediction API',
        version: API_VERSION,
        description: 'Football match predictions (outcome, expected goal difference, confidence) from models trained on real results.',
        documentation: DOCS_PATH,
        openapi: OPENAPI_PATH,
        key: data.viewer,
        plans: data.plans.map((p) => ({ code: p.code, name: p.name, daily_limit: p.dailyLimit })),
        data: {
          competitions: data.footballData.competitions,
          teams: data.footballData.teams,
          matches: data.footballData.matches,
          finished_matches: data.footballData.finishedMatches,
          scheduled_matches: data.footballData.scheduledMatches,
          latest_result_date: data.footballData.latestResultDate,
        },
        endpoints: predictionRoutes.map((r) => ({ method: r.method, path: r.path, description: r.summary, auth: AUTH_LABEL[r.security] })),
      },
    }),
  },
];
