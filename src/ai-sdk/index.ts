/**
 * `strata-memory/ai-sdk`: Strata's memory for the Vercel AI SDK, as a language-model middleware. Needs
 * the `ai` package (6.x), an optional peer dependency.
 */
export { strataMiddleware, type StrataMiddlewareOptions } from './strata-middleware.js';
