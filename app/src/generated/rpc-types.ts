// Generated from server/src/rpc by `cargo test -p voicemark-server --test it -- --ignored write_rpc_types`.
// Do not edit: change the Rust types and regenerate.

export interface ConfirmEmailInput {
  token: string;
}

export interface Done {
  ok: true;
}

export interface RegisterInput {
  forename: string;
  surname: string;
  email: string;
  password: string;
}

export interface RequestPasswordResetInput {
  email: string;
}

export interface ResetPasswordInput {
  token: string;
  password: string;
}

export interface StudentSummary {
  id: string;
  forename: string;
  surname: string;
  yearGroup: GroupName | null;
  formGroup: GroupName | null;
}

export interface GroupName {
  name: string;
}

export interface SystemTimeInput {
  clientTime: Date;
}

export interface SystemTimeOutput {
  clientTime: Date;
  serverTime: Date;
}

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

export interface PasswordChanged {
  changedAt: Date;
}

export interface MarkTutorialCompleteInput {
  complete: true;
}

export interface UserSettings {
  forename: string;
  surname: string;
  email: string;
  emailPreferences: EmailPreferences;
}

export interface EmailPreferences {
  general: boolean;
  assignment: boolean;
  frequency: 'DAILY' | 'WEEKLY' | 'IMMEDIATELY';
  language: string;
}

export interface UpdateProfileInput {
  forename: string;
  surname: string;
}

export interface Profile {
  forename: string;
  surname: string;
}

/** Every procedure at /api/trpc: its kind, input and output. */
export interface RpcProcedures {
  'account.confirmEmail': { kind: 'mutation'; input: ConfirmEmailInput; output: Done };
  'account.register': { kind: 'mutation'; input: RegisterInput; output: Done };
  'account.requestPasswordReset': { kind: 'mutation'; input: RequestPasswordResetInput; output: Done };
  'account.resetPassword': { kind: 'mutation'; input: ResetPasswordInput; output: Done };
  'school.listStudents': { kind: 'query'; input: void; output: Array<StudentSummary> };
  'system.time': { kind: 'query'; input: SystemTimeInput; output: SystemTimeOutput };
  'user.changePassword': { kind: 'mutation'; input: ChangePasswordInput; output: PasswordChanged };
  'user.feedbackHubCount': { kind: 'query'; input: void; output: number };
  'user.markTutorialComplete': { kind: 'mutation'; input: MarkTutorialCompleteInput; output: Done };
  'user.settings': { kind: 'query'; input: void; output: UserSettings };
  'user.updateEmailPreferences': { kind: 'mutation'; input: EmailPreferences; output: EmailPreferences };
  'user.updateProfile': { kind: 'mutation'; input: UpdateProfileInput; output: Profile };
}

export type RpcPath = keyof RpcProcedures;
export type RpcInput<P extends RpcPath> = RpcProcedures[P]['input'];
export type RpcOutput<P extends RpcPath> = RpcProcedures[P]['output'];
