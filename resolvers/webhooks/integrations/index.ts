// Every incoming-webhook integration Parley offers, by URL name. One line per integration.
import type { Integration } from '../integration.ts';
import { airbrake } from './airbrake.ts';
import { alertmanager } from './alertmanager.ts';
import { ansibletower } from './ansibletower.ts';
import { appveyor } from './appveyor.ts';
import { azuredevops } from './azuredevops.ts';
import { bitbucket2 } from './bitbucket2.ts';
import { bitbucket3 } from './bitbucket3.ts';
import { buildbot } from './buildbot.ts';
import { circleci } from './circleci.ts';
import { gitea } from './gitea.ts';
import { github, githubSponsors } from './github/index.ts';
import { gitlab } from './gitlab.ts';
import { gocd } from './gocd.ts';
import { gogs } from './gogs.ts';
import { grafana } from './grafana.ts';
import { harbor } from './harbor.ts';
import { heroku } from './heroku.ts';
import { homeassistant } from './homeassistant.ts';
import { ifttt } from './ifttt.ts';
import { insping } from './insping.ts';
import { intercom } from './intercom.ts';
import { jira } from './jira.ts';
import { json } from './json.ts';
import { librato } from './librato.ts';
import { lidarr } from './lidarr.ts';
import { netlify } from './netlify.ts';
import { newrelic } from './newrelic.ts';
import { openproject } from './openproject.ts';
import { opsgenie } from './opsgenie.ts';
import { pagerduty } from './pagerduty.ts';
import { papertrail } from './papertrail.ts';
import { pingdom } from './pingdom.ts';
import { pivotal } from './pivotal.ts';
import { radarr } from './radarr.ts';
import { raygun } from './raygun.ts';
import { rundeck } from './rundeck.ts';
import { semaphore } from './semaphore.ts';
import { sentry } from './sentry.ts';
import { slackIncoming } from './slack-incoming.ts';
import { sonarqube } from './sonarqube.ts';
import { sonarr } from './sonarr.ts';
import { splunk } from './splunk.ts';
import { statuspage } from './statuspage.ts';
import { stripe } from './stripe.ts';
import { teamcity } from './teamcity.ts';
import { travis } from './travis.ts';
import { trello } from './trello/index.ts';
import { updown } from './updown.ts';
import { uptimerobot } from './uptimerobot.ts';
import { wekan } from './wekan.ts';
import { wordpress } from './wordpress.ts';
import { zabbix } from './zabbix.ts';
import { zapier } from './zapier.ts';
import { zendesk } from './zendesk.ts';

export const INTEGRATIONS: readonly Integration[] = [
  airbrake,
  alertmanager,
  ansibletower,
  appveyor,
  azuredevops,
  bitbucket2,
  bitbucket3,
  buildbot,
  circleci,
  gitea,
  github,
  githubSponsors,
  gitlab,
  gocd,
  gogs,
  grafana,
  harbor,
  heroku,
  homeassistant,
  ifttt,
  insping,
  intercom,
  jira,
  json,
  librato,
  lidarr,
  netlify,
  newrelic,
  openproject,
  opsgenie,
  pagerduty,
  papertrail,
  pingdom,
  pivotal,
  radarr,
  raygun,
  rundeck,
  semaphore,
  sentry,
  slackIncoming,
  sonarqube,
  sonarr,
  splunk,
  statuspage,
  stripe,
  teamcity,
  travis,
  trello,
  updown,
  uptimerobot,
  wekan,
  wordpress,
  zabbix,
  zapier,
  zendesk,
];

const byUrlName = new Map(INTEGRATIONS.map((i) => [i.urlName, i]));

export function integrationNamed(urlName: string): Integration | undefined {
  return byUrlName.get(urlName);
}

/** The integrations as register (realm_incoming_webhook_bots) and GraphQL list them. */
export function incomingWebhookIntegrations() {
  return INTEGRATIONS.map((i) => ({
    name: i.urlName,
    displayName: i.displayName,
    allEventTypes: i.eventTypes ? [...i.eventTypes] : null,
    urlOptions: (i.configOptions ?? []).map((o) => ({ key: o.key, label: o.label, inputType: o.validator })),
  }));
}
