// Checks the Kubernetes manifests in a folder (default: deploy/k8s) without a cluster:
//   1. every document validates against the Kubernetes API schema of its kind (kubernetes-models:
//      types, required fields, formats, enums);
//   2. no document has a field its kind does not define (a typo such as `portz` passes (1) but not the
//      TypeScript compiler's excess-property check, which this runs over every document);
//   3. the manifests match what the applications expose: probe paths and the ports they point at, the
//      ports the images listen on, environment variable names the services read, cluster sizes and
//      references between the objects.
// Usage: node check.mjs [manifest-folder] [repository-root]; exit 0 when every check passes.
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const folder = resolve(process.argv[2] ?? join(here, ".."));
const repo = resolve(process.argv[3] ?? join(here, "../../.."));
const problems = [];
const problem = (where, what) => problems.push(`${where}: ${what}`);

// --- load ---------------------------------------------------------------------------------------
const files = readdirSync(folder).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml").sort();
const docs = [];
for (const file of files) {
  for (const parsed of parseAllDocuments(readFileSync(join(folder, file), "utf8"))) {
    if (parsed.errors.length) {
      problem(file, parsed.errors.map((e) => e.message).join("; "));
      continue;
    }
    const doc = parsed.toJS();
    if (doc) docs.push({ file, doc, where: `${file} ${doc.kind}/${doc.metadata?.name}` });
  }
}

// --- 1. schema validation -----------------------------------------------------------------------
for (const d of docs) {
  const { apiVersion, kind } = d.doc;
  if (!apiVersion || !kind) {
    problem(d.where, "apiVersion and kind are required");
    continue;
  }
  d.module = `kubernetes-models/${apiVersion}/${kind}`; // core kinds: kubernetes-models/v1/Service
  try {
    const Model = (await import(d.module))[kind];
    new Model(d.doc).validate();
  } catch (e) {
    problem(d.where, e.code === "ERR_MODULE_NOT_FOUND" ? `unknown kind ${apiVersion} ${kind}` : e.message);
  }
}

// --- 2. unknown fields (TypeScript excess-property check) ---------------------------------------
{
  const dir = mkdtempSync(join(tmpdir(), "k8s-check-"));
  const lines = [];
  docs.filter((d) => d.module).forEach((d, i) => {
    lines.push(`import type { I${d.doc.kind} as T${i} } from "${d.module}";`);
    lines.push(`// ${d.where}`);
    lines.push(`export const doc${i}: T${i} = ${JSON.stringify(d.doc, null, 1)};`);
  });
  writeFileSync(join(dir, "manifests.ts"), lines.join("\n") + "\n");
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022",
      skipLibCheck: true, baseUrl: here, paths: { "*": [join(here, "node_modules/*")] }, typeRoots: [],
    },
    files: ["manifests.ts"],
  }));
  try {
    execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
  } catch (e) {
    const out = String(e.stdout || e.message);
    const source = lines.join("\n").split("\n");
    for (const line of out.split("\n").filter((l) => l.includes("error TS"))) {
      const at = /manifests\.ts\((\d+),/.exec(line);
      let where = "manifests";
      if (at) {
        for (let n = Number(at[1]) - 1; n >= 0; n--) {
          if (source[n]?.startsWith("// ")) { where = source[n].slice(3); break; }
        }
      }
      problem(where, line.replace(/^.*error TS\d+: /, ""));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- 3. against the applications ----------------------------------------------------------------
const readme = readFileSync(join(repo, "docs", "configuration.md"), "utf8");
const documentedEnv = new Set([...readme.matchAll(/^\| `[^`]+` \| ([^|]*) \|/gm)]
  .flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((x) => x[1])));
const podEnv = new Set(["JAVA_OPTS", "OMP_NUM_THREADS", "POD_NAME"]);
const dockerfile = readFileSync(join(repo, "Dockerfile"), "utf8");
const roles = {
  "jvm-ps/scheduler": { module: "scheduler-service", ports: { http: 8080 } },
  "jvm-ps/server": { module: "server-service", ports: { http: 8080, rsocket: Number(/PS_SERVER_RSOCKET_PORT=(\d+)/.exec(dockerfile)?.[1]) } },
  "jvm-ps/worker": { module: "worker-service", ports: { http: 8080, rsocket: Number(/PS_WORKER_RSOCKET_PORT=(\d+)/.exec(dockerfile)?.[1]) } },
};
if (!/PS_HTTP_PORT=8080/.test(dockerfile)) problem("Dockerfile", "the images no longer listen for HTTP on 8080");
const byKind = (kind) => docs.filter((d) => d.doc.kind === kind);
const named = (kind, name) => byKind(kind).find((d) => d.doc.metadata?.name === name);
const config = {};
for (const d of byKind("ConfigMap")) Object.assign(config, d.doc.data ?? {});
for (const key of Object.keys(config)) {
  if (!documentedEnv.has(key)) problem(`ConfigMap key ${key}`, "not an environment variable the services read (docs/configuration.md)");
}

const workloads = docs.filter((d) => ["Deployment", "StatefulSet", "Job"].includes(d.doc.kind));
const seenRoles = new Set();
for (const w of workloads) {
  const pod = w.doc.spec?.template?.spec ?? {};
  for (const c of pod.containers ?? []) {
    const where = `${w.where} container ${c.name}`;
    const role = roles[String(c.image).replace(/:.*$/, "")];
    if (!role) { problem(where, `image ${c.image} is none of ${Object.keys(roles).join(", ")}`); continue; }
    seenRoles.add(c.image.replace(/:.*$/, ""));
    const app = readFileSync(join(repo, role.module, "src/main/resources/application.yml"), "utf8");
    const ports = Object.fromEntries((c.ports ?? []).map((p) => [p.name, p.containerPort]));
    for (const [name, port] of Object.entries(role.ports)) {
      if (ports[name] !== port) problem(where, `port ${name} must be ${port} (what the image listens on), is ${ports[name]}`);
    }
    for (const name of Object.keys(ports)) {
      if (!(name in role.ports)) problem(where, `port ${name} is not one the service opens`);
    }
    for (const kind of ["startupProbe", "livenessProbe", "readinessProbe"]) {
      const probe = c[kind]?.httpGet;
      if (!probe) { problem(where, `${kind} with httpGet is required`); continue; }
      const want = kind === "readinessProbe" ? "/actuator/health/readiness" : "/actuator/health/liveness";
      if (probe.path !== want) problem(where, `${kind} path must be ${want}, is ${probe.path}`);
      if (probe.port !== "http" && probe.port !== role.ports.http) problem(where, `${kind} must probe the HTTP port`);
    }
    if (!/probes:\s*\n\s*enabled: true/.test(app)) problem(where, `${role.module} does not enable the health probe groups`);
    if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) problem(where, "cpu and memory requests are required");
    for (const e of c.env ?? []) {
      if (!documentedEnv.has(e.name) && !podEnv.has(e.name)) problem(where, `env ${e.name} is not a variable the services read`);
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) {
        const secret = named("Secret", ref.name);
        if (!secret) problem(where, `env ${e.name} reads Secret ${ref.name}, which is not defined`);
        else if (!(ref.key in (secret.doc.stringData ?? secret.doc.data ?? {}))) problem(where, `Secret ${ref.name} has no key ${ref.key}`);
      }
    }
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef && !named("ConfigMap", from.configMapRef.name)) problem(where, `ConfigMap ${from.configMapRef.name} is not defined`);
    }
    const mounts = new Set((c.volumeMounts ?? []).map((m) => m.name));
    for (const v of pod.volumes ?? []) {
      if (!mounts.has(v.name)) problem(where, `volume ${v.name} is not mounted`);
      if (v.persistentVolumeClaim && !named("PersistentVolumeClaim", v.persistentVolumeClaim.claimName)) {
        problem(where, `PersistentVolumeClaim ${v.persistentVolumeClaim.claimName} is not defined`);
      }
    }
  }
  const labels = w.doc.spec?.template?.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(w.doc.spec?.selector?.matchLabels ?? {})) {
    if (labels[k] !== v) problem(w.where, `selector ${k}=${v} does not match the pod template's labels`);
  }
}
for (const image of Object.keys(roles)) if (!seenRoles.has(image)) problem(folder, `no workload runs ${image}`);

for (const s of byKind("Service")) {
  const target = workloads.find((w) => Object.entries(s.doc.spec?.selector ?? {})
    .every(([k, v]) => w.doc.spec?.template?.metadata?.labels?.[k] === v));
  if (!target) { problem(s.where, "selects no workload"); continue; }
  const names = new Set((target.doc.spec.template.spec.containers ?? []).flatMap((c) => (c.ports ?? []).map((p) => p.name)));
  for (const p of s.doc.spec?.ports ?? []) {
    if (typeof p.targetPort === "string" && !names.has(p.targetPort)) problem(s.where, `targetPort ${p.targetPort} is no port of ${target.where}`);
  }
}
const servers = byKind("StatefulSet").find((d) => d.doc.spec?.template?.spec?.containers?.some((c) => c.image.startsWith("jvm-ps/server")));
const workers = byKind("Job").find((d) => d.doc.spec?.template?.spec?.containers?.some((c) => c.image.startsWith("jvm-ps/worker")));
if (servers && String(servers.doc.spec.replicas) !== config.MS_SERVER_NUM) problem(servers.where, `replicas ${servers.doc.spec.replicas} != MS_SERVER_NUM ${config.MS_SERVER_NUM}`);
if (servers && !named("Service", servers.doc.spec.serviceName)) problem(servers.where, `serviceName ${servers.doc.spec.serviceName} is not defined`);
if (workers) {
  for (const f of ["completions", "parallelism"]) {
    if (String(workers.doc.spec[f]) !== config.MS_WORKER_NUM) problem(workers.where, `${f} ${workers.doc.spec[f]} != MS_WORKER_NUM ${config.MS_WORKER_NUM}`);
  }
}
if (config.MS_SCHED_HOST && !named("Service", config.MS_SCHED_HOST)) problem("ConfigMap", `MS_SCHED_HOST ${config.MS_SCHED_HOST} is no Service`);

// kustomization lists every manifest
try {
  const k = parseAllDocuments(readFileSync(join(folder, "kustomization.yaml"), "utf8"))[0].toJS();
  const listed = new Set(k.resources ?? []);
  for (const f of files) if (!listed.has(f)) problem("kustomization.yaml", `does not list ${f}`);
  for (const f of listed) if (!files.includes(f)) problem("kustomization.yaml", `lists ${f}, which does not exist`);
} catch (e) {
  problem("kustomization.yaml", e.message);
}

// --- report -------------------------------------------------------------------------------------
if (problems.length) {
  console.error(`k8s-check: ${problems.length} problem(s) in ${folder}:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`k8s-check: ${docs.length} manifests valid (${docs.map((d) => `${d.doc.kind}/${d.doc.metadata?.name}`).join(", ")})`);
