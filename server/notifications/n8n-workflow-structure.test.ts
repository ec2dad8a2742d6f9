/**
 * The shipped n8n workflows' structure (integrations/n8n/; issue 20 item 3, issue 28 item 9): each is
 * what build-workflow.ts builds, one trigger and every node in one chain, PHI-safe settings, its own
 * id and webhook path; the links workflow and the inbound example node by node. Their Code nodes run
 * against the real app in n8n-workflow.test.ts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildInboundWorkflow,
  buildLinksWorkflow,
  codeNodeSource,
  downloaderPath,
  downloadNodeSource,
  exampleMessageCode,
  inboundNodeSource,
  inboundSignerPath,
  inboundWorkflowPath,
  linksWorkflowPath,
  recordNodeSource,
  shippedWorkflows,
  workflowPath,
} from '../../integrations/n8n/build-workflow.ts';
import { readWorkflow, type Workflow } from './testing/n8n-code-node.ts';

const TRIGGERS = ['n8n-nodes-base.webhook', 'n8n-nodes-base.manualTrigger'];

/**
 * What n8n would get wrong in a workflow's Webhook nodes: 'Raw Body' together with 'No Response
 * Body', which n8n treats as exclusive options and then drops the raw body (issue 53 item 1: the
 * links workflow's Verify failed on every message after n8n had answered 200).
 */
function webhookProblems(workflow: Pick<Workflow, 'nodes'>): string[] {
  return workflow.nodes
    .filter((n) => n.type === 'n8n-nodes-base.webhook')
    .filter((n) => {
      const options = (n.parameters.options ?? {}) as Record<string, unknown>;
      return options.rawBody === true && 'noResponseBody' in options;
    })
    .map((n) => `${n.name}: rawBody with noResponseBody`);
}

/**
 * The literal text of each `new Error(...)` in a Code node's code (string or template literal; a
 * template's \${...} parts kept as written).
 */
function thrownMessages(code: string): string[] {
  return [...code.matchAll(/new Error\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*)\1/g)].map((m) => m[2]!);
}

/** The chain of node names from the trigger, following each node's single main output. */
function chainOf(workflow: Workflow): string[] {
  const trigger = workflow.nodes.find((n) => TRIGGERS.includes(n.type))!;
  const chain = [trigger.name];
  for (let next = workflow.connections[trigger.name]; next; ) {
    const target = next.main[0]![0]!.node;
    chain.push(target);
    next = workflow.connections[target];
  }
  return chain;
}

describe('the shipped workflows: structure', () => {
  it.each(shippedWorkflows.map((w) => [w.path.split('/').pop()!, w] as const))(
    '%s: one trigger, every node connected in one chain, no dangling connection, PHI-safe settings',
    (_name, { path, build }) => {
      const workflow = readWorkflow(path);
      expect(workflow).toEqual(build());
      const names = workflow.nodes.map((n) => n.name);
      expect(new Set(names).size).toBe(names.length);
      expect(new Set(workflow.nodes.map((n) => n.id)).size).toBe(names.length);
      for (const node of workflow.nodes) {
        expect(node.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(node.position).toHaveLength(2);
      }
      expect(workflow.nodes.filter((n) => TRIGGERS.includes(n.type))).toHaveLength(1);
      for (const [source, { main }] of Object.entries(workflow.connections)) {
        expect(names).toContain(source);
        for (const target of main.flat()) {
          expect(names).toContain(target.node);
          expect(target).toMatchObject({ type: 'main', index: 0 });
        }
      }
      expect([...chainOf(workflow)].sort()).toEqual([...names].sort());
      expect(workflow.settings).toMatchObject({
        saveDataSuccessExecution: 'none',
        saveManualExecutions: false,
      });
    },
  );

  it('gives each workflow its own id and webhook path', () => {
    const workflows = shippedWorkflows.map((w) => readWorkflow(w.path));
    expect(new Set(workflows.map((w) => w.id)).size).toBe(workflows.length);
    const paths = workflows.flatMap((w) =>
      w.nodes.filter((n) => n.type === 'n8n-nodes-base.webhook').map((n) => n.parameters.path),
    );
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('links workflow: answers 200 when the request is in, then verifies, downloads and checks', () => {
    const workflow = readWorkflow(linksWorkflowPath);
    expect(chainOf(workflow)).toEqual([
      'Completion webhook',
      'Verify signature',
      'Download and check documents',
      'Your processing here',
      'Record as processed',
    ]);
    const [webhook, verify, downloader, , record] = workflow.nodes;
    expect(record!.parameters.jsCode).toBe(recordNodeSource());
    expect(webhook!.parameters).toMatchObject({
      httpMethod: 'POST',
      path: 'credentialing-completion-links',
      responseMode: 'onReceived',
      options: { rawBody: true },
    });
    expect(verify!.parameters.jsCode).toBe(codeNodeSource());
    expect(downloader!.parameters.jsCode).toBe(downloadNodeSource());
    expect(downloadNodeSource().startsWith(fs.readFileSync(downloaderPath, 'utf8'))).toBe(true);
    // The original workflow still answers when it ends (a failed check is a 500 the portal sees).
    expect(readWorkflow(workflowPath).nodes[0]!.parameters.responseMode).toBe('lastNode');
  });

  it('no Webhook node combines Raw Body with No Response Body (n8n then drops the raw body)', () => {
    for (const { path } of shippedWorkflows) expect(webhookProblems(readWorkflow(path)), path).toEqual([]);
    // The rule itself: the links webhook as it shipped before issue 53 is caught.
    const shippedBefore = {
      nodes: [
        {
          ...readWorkflow(linksWorkflowPath).nodes[0]!,
          parameters: { responseMode: 'onReceived', options: { rawBody: true, noResponseBody: true } },
        },
      ],
    };
    expect(webhookProblems(shippedBefore)).toEqual(['Completion webhook: rawBody with noResponseBody']);
  });

  it("the Code nodes' error messages have no ':' (n8n shows only the text after the last one)", () => {
    const codes = shippedWorkflows.flatMap(({ path }) =>
      readWorkflow(path).nodes.flatMap((n) => (n.parameters.jsCode ? [n.parameters.jsCode] : [])),
    );
    const messages = codes.flatMap(thrownMessages);
    // verify (4) x 2 workflows, download (4), inbound (3 + the PORTAL_URL check)
    expect(messages.length).toBeGreaterThanOrEqual(16);
    // n8n's task runner splits the message on every ':' and shows the last piece; what a template
    // inserts at run time (\${readable(...)}) is cleaned by readable().
    for (const message of messages) expect(message.replace(/\$\{[^}]*\}/g, '')).not.toContain(':');
    expect(thrownMessages("throw new Error('Not signed: refused')")).toEqual(['Not signed: refused']);
  });

  it('inbound example: run by hand, a message, then the node that signs and sends it', () => {
    const workflow = readWorkflow(inboundWorkflowPath);
    expect(chainOf(workflow)).toEqual(['Run by hand', 'Message to send', 'Sign and send']);
    expect(workflow.nodes.map((n) => n.type)).toEqual([
      'n8n-nodes-base.manualTrigger',
      'n8n-nodes-base.code',
      'n8n-nodes-base.code',
    ]);
    expect(workflow.nodes[1]!.parameters.jsCode).toBe(exampleMessageCode);
    expect(workflow.nodes[2]!.parameters.jsCode).toBe(inboundNodeSource());
    expect(inboundNodeSource().startsWith(fs.readFileSync(inboundSignerPath, 'utf8'))).toBe(true);
    expect(buildLinksWorkflow()).toEqual(readWorkflow(linksWorkflowPath));
    expect(buildInboundWorkflow()).toEqual(workflow);
  });
});
