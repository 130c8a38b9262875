import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { NotificationEnvDto } from './env-notifications.dto.js';

const HTTP_URL = /^https?:\/\/[^\s]{1,2040}$/;

/** Span export (docs/observability.md "Tracing"): the OpenTelemetry settings read; OTLP/HTTP JSON only. */
export class TracingEnvDto extends NotificationEnvDto {
  @IsOptional()
  @IsString()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @IsString()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @IsOptional()
  @IsIn(['http/json'], { message: 'OTEL_EXPORTER_OTLP_PROTOCOL: only http/json is supported' })
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;

  @IsOptional()
  @IsIn(['http/json'], { message: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: only http/json is supported' })
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'OTEL_SERVICE_NAME must be 1-128 printable ASCII characters, no space' })
  OTEL_SERVICE_NAME?: string;
}
