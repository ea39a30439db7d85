/** The `telemetry` option, refused at start when it could only fail later. */
import type { TelemetryOptions } from '../telemetry/options.ts';
import { group } from './check.ts';

export function resolveTelemetry(
  value: TelemetryOptions | false | undefined,
): TelemetryOptions | false {
  if (value === false) return false;
  if (value !== undefined && (typeof value !== 'object' || value === null)) {
    throw new TypeError(
      'createPaymentHandler: telemetry must be { tracerProvider?, meterProvider? } or false',
    );
  }
  const option = group('telemetry', value, ['tracerProvider', 'meterProvider']) ?? {};
  const { tracerProvider, meterProvider } = option;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
    throw new TypeError(
      'createPaymentHandler: telemetry.tracerProvider must be an OpenTelemetry TracerProvider',
    );
  }
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== 'function') {
    throw new TypeError(
      'createPaymentHandler: telemetry.meterProvider must be an OpenTelemetry MeterProvider',
    );
  }
  return option;
}
