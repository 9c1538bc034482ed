export * from './gen/timeliner/auth/v1/events_pb.js';
export * from './gen/timeliner/auth/v1/session_pb.js';
export * from './define.js';
export * from './catalogue.js';
export * from './realtime.js';
