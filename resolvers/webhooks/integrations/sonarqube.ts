// SonarQube's webhooks (Zulip's zerver/webhooks/sonarqube/view.py): a project's analysis passed or
// failed its quality gate, with the conditions it missed. The topic is the project, and its branch
// when the analysis names one.
import type { Integration, WebhookOutcome, WebhookRequest } from '../integration.ts';
import type { WildValue } from '../payload.ts';

// A condition's operator says when it fails; the message says what was expected instead.
const INVERSE_OPERATORS = new Map([
  ['WORSE_THAN', 'should be better or equal to'],
  ['GREATER_THAN', 'should be less than or equal to'],
  ['LESS_THAN', 'should be greater than or equal to'],
]);

/** Conditions that passed, or had nothing to measure, are not worth a line. */
function failed(condition: WildValue): boolean {
  const status = condition.get('status').str().toLowerCase();
  return status !== 'ok' && status !== 'no_value';
}

function conditionLine(condition: WildValue): string {
  const metric = condition.get('metric').str().replaceAll('_', ' ');
  const operatorCode = condition.get('operator').str();
  const operator = INVERSE_OPERATORS.get(operatorCode) ?? operatorCode;
  const value = condition.has('value') ? condition.get('value').str() : 'no value';
  const status = condition.get('status').str().toLowerCase();
  const threshold = condition.get('errorThreshold').str();
  return value === 'no value' ? `* ${metric}: **${status}**.` : `* ${metric}: **${status}** ${value} ${operator} ${threshold}.`;
}

function body(payload: WildValue, branch: string | null): string {
  const project = payload.get('project');
  const link = `[${project.get('name').str()}](${project.get('url').str()})`;
  const gate = payload.get('qualityGate');
  const result = gate.get('status').str().toLowerCase() === 'ok' ? 'success' : 'error';
  const conditions = gate.get('conditions').list().filter(failed).map(conditionLine).join('\n');
  const analysis = branch === null ? 'analysis' : `analysis of branch ${branch}`;
  const sentence = `Project ${link} ${analysis} resulted in ${result}`;
  return conditions ? `${sentence}:\n${conditions}` : `${sentence}.`;
}

export const sonarqube: Integration = {
  urlName: 'sonarqube',
  displayName: 'Sonarqube',
  eventTypes: null,
  translate(request: WebhookRequest): WebhookOutcome {
    const payload = request.payload();
    const project = payload.get('project').get('name').str();
    // An analysis of the main branch may name no branch, or a branch without a name.
    const branch = payload.has('branch') ? payload.get('branch').opt('name').optStr() || null : null;
    const topic = branch === null ? project : `${project} / ${branch}`;
    return { messages: [{ topic, content: body(payload, branch) }] };
  },
};
