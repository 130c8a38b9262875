{{/* Chart name, or nameOverride. */}}
{{- define "tickwheel.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <release>-tickwheel, or the release name when it already contains the chart name; fullnameOverride wins. */}}
{{- define "tickwheel.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels that select the release's pods (add app.kubernetes.io/component per role). */}}
{{- define "tickwheel.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tickwheel.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "tickwheel.labels" -}}
{{ include "tickwheel.selectorLabels" . }}
{{ include "tickwheel.commonLabels" . }}
{{- end }}

{{/* The labels of every object that select nothing. */}}
{{- define "tickwheel.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tickwheel
{{- end }}

{{/*
<fullname>-<suffix>, the fullname cut so the whole stays within 63 characters (a Service name is a DNS label);
argument: (list $ suffix). Each object cuts only for its own suffix, so adding an extra executor renames nothing.
*/}}
{{- define "tickwheel.objectName" -}}
{{- $suffix := index . 1 }}
{{- $base := include "tickwheel.fullname" (index . 0) | trunc (int (sub 62 (len $suffix))) | trimSuffix "-" }}
{{- printf "%s-%s" $base $suffix }}
{{- end }}

{{- define "tickwheel.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tickwheel.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Secret holding DB_URL, REDIS_URL and TICKWHEEL_SECRET_KEY: existingSecret, or the one the chart renders. */}}
{{- define "tickwheel.secretName" -}}
{{- if .Values.existingSecret }}
{{- .Values.existingSecret }}
{{- else }}
{{- include "tickwheel.objectName" (list . "secret") }}
{{- end }}
{{- end }}

{{/* The containers' http port: the PORT setting (app default 3000). */}}
{{- define "tickwheel.port" -}}
{{- (hasKey .Values.config "PORT") | ternary .Values.config.PORT 3000 | int }}
{{- end }}

{{/*
Every Deployment the chart renders, as a YAML list of dicts: suffix, component, roles, executor (name of an extra
executor), replicas, image, command and args (empty: not rendered, the image's ENTRYPOINT and CMD apply), config
(extra settings), port (PORT), env, resources, pdb, autoscaling, strategy and grace (terminationGracePeriodSeconds: the role's
shutdown grace, rounded up to seconds, plus shutdown.marginSeconds).
Grace defaults are the app's (src/config/load-config.ts): EXECUTOR_SHUTDOWN_GRACE_MS 10000,
CALLBACK_SHUTDOWN_GRACE_MS 5000.
*/}}
{{- define "tickwheel.workloads" -}}
{{- $v := .Values }}
{{- $margin := int $v.shutdown.marginSeconds }}
{{- $execMs := hasKey $v.config "EXECUTOR_SHUTDOWN_GRACE_MS" | ternary $v.config.EXECUTOR_SHUTDOWN_GRACE_MS 10000 | int }}
{{- $cbMs := hasKey $v.config "CALLBACK_SHUTDOWN_GRACE_MS" | ternary $v.config.CALLBACK_SHUTDOWN_GRACE_MS 5000 | int }}
{{- $port := include "tickwheel.port" . | int }}
{{- $list := list }}
{{- $names := list }}
{{- $list = append $list (dict "suffix" "api" "component" "api" "roles" "api" "replicas" $v.api.replicas "image" $v.image "command" $v.command "args" $v.args "config" dict "env" $v.api.env "resources" $v.api.resources "pdb" $v.api.pdb "autoscaling" dict "strategy" $v.api.strategy "grace" $margin "service" true "port" $port) }}
{{- $list = append $list (dict "suffix" "scheduler" "component" "scheduler" "roles" "scheduler" "replicas" $v.scheduler.replicas "image" $v.image "command" $v.command "args" $v.args "config" dict "env" $v.scheduler.env "resources" $v.scheduler.resources "pdb" $v.scheduler.pdb "autoscaling" dict "strategy" $v.scheduler.strategy "grace" (add (div (add $cbMs 999) 1000) $margin) "port" $port) }}
{{- $list = append $list (dict "suffix" "executor" "component" "executor" "roles" "executor" "replicas" $v.executor.replicas "image" $v.image "command" $v.command "args" $v.args "config" dict "env" $v.executor.env "resources" $v.executor.resources "pdb" $v.executor.pdb "autoscaling" $v.executor.autoscaling "strategy" $v.executor.strategy "grace" (add (div (add $execMs 999) 1000) $margin) "port" $port) }}
{{- range $x := $v.extraExecutors }}
{{- if has $x.name $names }}
{{- fail (printf "extraExecutors: the name %q is given twice (each names its own Deployment)" $x.name) }}
{{- end }}
{{- $names = append $names $x.name }}
{{- $cfg := default dict $x.config }}
{{- $ms := hasKey $cfg "EXECUTOR_SHUTDOWN_GRACE_MS" | ternary $cfg.EXECUTOR_SHUTDOWN_GRACE_MS $execMs | int }}
{{- $port := hasKey $cfg "PORT" | ternary $cfg.PORT (include "tickwheel.port" $) | int }}
{{- $image := mergeOverwrite (deepCopy $v.image) (default dict $x.image) }}
{{- $list = append $list (dict "suffix" (printf "executor-%s" $x.name) "component" "executor" "executor" $x.name "roles" "executor" "replicas" (hasKey $x "replicas" | ternary $x.replicas 1) "image" $image "command" (default list $x.command) "args" (default list $x.args) "config" $cfg "env" (default list $x.env) "resources" (default dict $x.resources) "pdb" (default (dict "enabled" true "maxUnavailable" 1) $x.pdb) "autoscaling" (default dict $x.autoscaling) "strategy" (default $v.executor.strategy $x.strategy) "grace" (add (div (add $ms 999) 1000) $margin) "port" $port) }}
{{- end }}
{{- toYaml $list }}
{{- end }}

{{/*
Labels selecting one workload's pods; argument: (list $ $workload). tickwheel.io/workload keeps the built-in
executor's selector (and its PDB and HPA) off the extra executors' pods, which share component executor.
*/}}
{{- define "tickwheel.workloadSelector" -}}
{{- $ := index . 0 }}
{{- $w := index . 1 }}
{{- include "tickwheel.selectorLabels" $ }}
app.kubernetes.io/component: {{ $w.component }}
tickwheel.io/workload: {{ $w.suffix }}
{{- if $w.executor }}
tickwheel.io/executor: {{ $w.executor }}
{{- end }}
{{- end }}

{{/*
One setting as the string the app reads. Values files give numbers as float64: whole ones are printed as integers
(2592000000, not 2.592e+09), fractions as they are (EXECUTOR_APP_SHARE 0.5).
*/}}
{{- define "tickwheel.settingValue" -}}
{{- if and (kindIs "float64" .) (eq . (floor .)) }}
{{- int64 . }}
{{- else }}
{{- . }}
{{- end }}
{{- end }}
