{{- define "stemdeck.fullname" -}}
{{- printf "%s-stemdeck" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "stemdeck.labels" -}}
app.kubernetes.io/part-of: stemdeck
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/* Selector labels of one process: (dict "root" $ "name" "gateway") */}}
{{- define "stemdeck.selector" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/* A process's image: its own full reference when set (skaffold sets these), else <repository>/<process>:<tag>[@digest]. */}}
{{- define "stemdeck.image" -}}
{{- $own := (get .root.Values .name).image -}}
{{- if $own -}}
{{ $own }}
{{- else -}}
{{ .root.Values.image.repository }}/{{ .name }}:{{ .root.Values.image.tag }}{{ with .root.Values.image.digests }}{{ with get . $.name }}@{{ . }}{{ end }}{{ end }}
{{- end -}}
{{- end -}}

{{- define "stemdeck.serviceAccountName" -}}
{{- default (include "stemdeck.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{- define "stemdeck.secretName" -}}
{{- if .Values.secret.create -}}{{ include "stemdeck.fullname" . }}{{- else -}}{{ required "secret.existingSecret (or secret.create) is required" .Values.secret.existingSecret }}{{- end -}}
{{- end -}}

{{/* Secret keys a process reads: (dict "root" $ "keys" (list ...) "optional" bool) */}}
{{- define "stemdeck.secretEnv" -}}
{{- range .keys }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "stemdeck.secretName" $.root }}
      key: {{ . }}
      {{- if $.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/* Pod-level hardening shared by every process. */}}
{{- define "stemdeck.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "stemdeck.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
privileged: false
capabilities:
  drop: ["ALL"]
{{- end -}}

{{- define "stemdeck.topologySpread" -}}
- maxSkew: {{ .root.Values.topologySpread.maxSkew }}
  topologyKey: topology.kubernetes.io/zone
  whenUnsatisfiable: {{ .root.Values.topologySpread.zoneWhenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "stemdeck.selector" . | nindent 6 }}
- maxSkew: {{ .root.Values.topologySpread.maxSkew }}
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: {{ .root.Values.topologySpread.nodeWhenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "stemdeck.selector" . | nindent 6 }}
{{- end -}}
