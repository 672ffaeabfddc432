import type { Provider } from '@nestjs/common';
import { bindPort } from '../projects/project.providers';
import { StemRepository } from './stem.repository';
import { STEM_STORE, type StemStore } from './stem.ports';

/** The stem use-cases' token bound to the real repository (which the module provides). */
export const STEM_PORT_BINDINGS: Provider[] = [bindPort<StemStore>(STEM_STORE, StemRepository)];
