/**
 * Label membership (issue 28 item 3): the one place that decides which panels carry labels,
 * listed or dynamic. It has no routes and nothing to wire; the modules that target labels
 * (labels, commands, notifications, rollouts, alerts, screenshots, API tokens, devices) read it
 * from ./repository.js, and it depends on no module, so no import cycle runs through it.
 */
export {
  LabelMembership,
  labelMembers,
  likePattern,
  parseStoredFilter,
  referencedLabels,
} from './repository.js';
export { compareVersions } from './versions.js';
