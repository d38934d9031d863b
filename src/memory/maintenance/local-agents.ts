/** The offline maintenance agents, one per name. */
import type { AgentName } from '../../core/maintenance-run.js';
import type { MaintenanceAgent } from './agent.js';
import { localArchiver } from './archiver.js';
import { localCondenser } from './condenser.js';
import { localCorrector } from './corrector.js';
import { localLinker } from './linker.js';
import { localReviewer } from './reviewer.js';
import { localTagger } from './tagger.js';

export const LOCAL_AGENTS: Readonly<Record<AgentName, MaintenanceAgent>> = {
  archiver: localArchiver,
  corrector: localCorrector,
  condenser: localCondenser,
  linker: localLinker,
  tagger: localTagger,
  reviewer: localReviewer,
};
