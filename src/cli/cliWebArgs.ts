import { z } from 'zod';

/** The CLI's web and vision options. */
export const CliWebOptions = z.object({
  allowHosts: z.array(z.string()),
  denyHosts: z.array(z.string()),
  browserPath: z.string().optional(),
  searxngUrl: z.string().optional(),
  tavilyKey: z.string().optional(),
  tavilyEndpoint: z.string().optional(),
  braveKey: z.string().optional(),
  braveEndpoint: z.string().optional(),
  /** The main model reads images. */
  vision: z.boolean(),
  visionModel: z.string().optional(),
});
export type CliWebOptions = z.infer<typeof CliWebOptions>;

/** `parseArgs` options of the web flags. */
export const webArgOptions = {
  'web-allow-host': { type: 'string', multiple: true },
  'web-deny-host': { type: 'string', multiple: true },
  'searxng-url': { type: 'string' },
  'browser-path': { type: 'string' },
  vision: { type: 'boolean' },
  'vision-model': { type: 'string' },
} as const;

/** The web options from parsed flags and the environment (keys only from the environment). */
export function webOptionsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv): CliWebOptions {
  const list = (value: unknown) => (Array.isArray(value) ? value.flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean) : []);
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  return CliWebOptions.parse({
    allowHosts: list(values['web-allow-host']),
    denyHosts: list(values['web-deny-host']),
    browserPath: text(values['browser-path']) ?? text(env.STEPWISE_BROWSER_PATH),
    searxngUrl: text(values['searxng-url']) ?? text(env.SEARXNG_URL),
    tavilyKey: text(env.TAVILY_API_KEY),
    tavilyEndpoint: text(env.STEPWISE_TAVILY_ENDPOINT),
    braveKey: text(env.BRAVE_API_KEY),
    braveEndpoint: text(env.STEPWISE_BRAVE_ENDPOINT),
    vision: values.vision === true,
    visionModel: text(values['vision-model']) ?? text(env.STEPWISE_VISION_MODEL),
  });
}
