/**
 * Categories of well-known product and technology names, so "I prefer PostgreSQL 16" and
 * "let's use MySQL instead" both speak about the `database`. Keys are lower-case.
 */
const CATEGORY_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  database: [
    'postgresql', 'postgres', 'mysql', 'mariadb', 'sqlite', 'mongodb', 'mongo', 'dynamodb', 'cassandra',
    'couchdb', 'cockroachdb', 'neo4j', 'oracle', 'mssql', 'firestore', 'supabase', 'planetscale', 'duckdb',
    'clickhouse', 'snowflake', 'bigquery', 'elasticsearch', 'opensearch',
  ],
  cache: ['redis', 'memcached', 'valkey', 'varnish'],
  'message queue': ['kafka', 'rabbitmq', 'sqs', 'nats', 'pulsar', 'activemq'],
  language: [
    'typescript', 'javascript', 'python', 'java', 'kotlin', 'swift', 'rust', 'golang', 'ruby', 'php', 'scala',
    'elixir', 'haskell', 'c#', 'c++', 'dart', 'lua', 'perl', 'clojure', 'erlang', 'julia', 'zig',
  ],
  'frontend framework': ['react', 'vue', 'angular', 'svelte', 'sveltekit', 'next.js', 'nextjs', 'nuxt', 'solid', 'remix', 'astro', 'ember'],
  'backend framework': ['express', 'fastify', 'nestjs', 'koa', 'hono', 'django', 'flask', 'fastapi', 'rails', 'laravel', 'spring', 'phoenix', 'gin', 'actix'],
  runtime: ['node', 'node.js', 'nodejs', 'deno', 'bun'],
  cloud: ['aws', 'azure', 'gcp', 'heroku', 'vercel', 'netlify', 'digitalocean', 'fly.io', 'render', 'linode', 'hetzner'],
  cdn: ['cloudflare', 'fastly', 'akamai', 'cloudfront', 'bunny'],
  'operating system': ['linux', 'ubuntu', 'debian', 'windows', 'macos', 'fedora', 'centos', 'android', 'ios'],
  'container platform': ['docker', 'kubernetes', 'k8s', 'podman', 'nomad', 'openshift', 'eks', 'ecs', 'fargate', 'aks', 'gke'],
  'ci service': ['jenkins', 'circleci', 'travis', 'gitlab', 'github'],
  editor: ['vscode', 'vim', 'neovim', 'emacs', 'intellij', 'webstorm', 'pycharm', 'xcode', 'cursor'],
  'payment provider': ['stripe', 'paypal', 'braintree', 'adyen', 'square'],
  'auth provider': ['auth0', 'okta', 'cognito', 'keycloak', 'clerk'],
  orm: ['prisma', 'drizzle', 'typeorm', 'sequelize', 'sqlalchemy', 'hibernate', 'knex', 'mikro-orm'],
  'test framework': ['jest', 'vitest', 'mocha', 'pytest', 'junit', 'cypress', 'playwright', 'jasmine'],
};

const CATEGORY_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(CATEGORY_MEMBERS).flatMap(([category, members]) => members.map((member) => [member, category] as const)),
);

/** The category of a known name ("PostgreSQL" → "database"), or null. */
export function categoryOf(name: string): string | null {
  return CATEGORY_OF.get(name.toLowerCase().replace(/[’']s$/u, '')) ?? null;
}

/** Whether a word names a category itself ("database", "cache" …). */
export function isCategoryName(word: string): boolean {
  return Object.hasOwn(CATEGORY_MEMBERS, word.toLowerCase());
}
