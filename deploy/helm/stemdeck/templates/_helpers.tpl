{{- define "stemdeck.labels" -}}
app.kubernetes.io/part-of: stemdeck
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "stemdeck.env" -}}
- name: NODE_ENV
  value: production
- name: NATS_URL
  value: {{ .Values.config.natsUrl | quote }}
- name: S3_ENDPOINT
  value: {{ .Values.config.s3Endpoint | quote }}
- name: S3_BUCKET
  value: {{ .Values.config.s3Bucket | quote }}
- name: S3_REGION
  value: {{ .Values.config.s3Region | quote }}
{{- with .Values.config.otelExporterOtlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- range $key := list "MONGODB_URI" "S3_ACCESS_KEY" "S3_SECRET_KEY" }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ $.Values.existingSecret }}, key: {{ $key }} }
{{- end }}
{{- end -}}
