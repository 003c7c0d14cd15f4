// Generated from server/src/rpc by `cargo test -p voicemark-server --test it -- --ignored write_rpc_types`.
// Do not edit: change the Rust types and regenerate.

export interface ConfirmEmailInput {
  token: string;
}

export interface ConfirmEmailAnswer {
  ok: true;
  organisationName: string | null;
}

export interface RegisterInput {
  forename: string;
  surname: string;
  email: string;
  password: string;
  organisationName: string;
  postcode: string;
  orgType: string;
}

export interface Done {
  ok: true;
}

export interface RequestPasswordResetInput {
  email: string;
}

export interface ResetPasswordInput {
  token: string;
  password: string;
}

export interface ErasePupil {
  id: string;
}

export interface ImportPupils {
  csv: string;
}

export interface ImportResult {
  imported: number;
}

export interface Group {
  id: string;
  name: string;
  pupils: number;
}

export interface ListPupils {
  search: string | null;
  cursor: string | null;
}

export interface PupilPage {
  pupils: Array<Pupil>;
  total: number;
  pageSize: number;
  nextCursor: string | null;
}

export interface Pupil {
  id: string;
  forename: string;
  surname: string;
  email: string | null;
  parentEmail: string | null;
  parentLanguage: string | null;
  upn: string | null;
  yearGroupId: string | null;
  yearGroup: string | null;
  formGroupId: string | null;
  formGroup: string | null;
  classIds: Array<string>;
}

export interface ListStaff {
  search: string | null;
  cursor: string | null;
}

export interface StaffPage {
  staff: Array<Staff>;
  total: number;
  pageSize: number;
  nextCursor: string | null;
}

export interface Staff {
  id: string;
  forename: string;
  surname: string;
  email: string;
  role: string;
  activated: boolean;
  disabled: boolean;
  hasPassword: boolean;
  status: string;
  classIds: Array<string>;
}

export interface MisSyncStatus {
  source: string | null;
  wondeId: string | null;
  groupcallId: string | null;
  tokenSaved: boolean;
  running: SyncRunView | null;
  lastRun: SyncRunView | null;
  lastFullSync: Date | null;
  lastDeltaSync: Date | null;
  noParentCount: number;
  noParent: Array<ProblemPupil>;
  noFormCount: number;
  noForm: Array<ProblemPupil>;
  duplicateEmails: Array<DuplicateEmail>;
  refusedAddresses: Array<RefusedAddress>;
}

export interface SyncRunView {
  kind: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  progress: string;
  added: number;
  updated: number;
  archived: number;
  error: string | null;
  problems: Array<string>;
}

export interface ProblemPupil {
  id: string;
  name: string;
}

export interface DuplicateEmail {
  email: string;
  pupils: number;
}

export interface RefusedAddress {
  studentId: string;
  name: string;
  audience: string;
  address: string;
  reason: string;
  refusedAt: Date;
  sentence: string;
}

export interface ProfileViewsInput {
  page: number | null;
}

export interface ProfileViewPage {
  views: Array<ProfileView>;
  total: number;
  page: number;
  pageSize: number;
}

export interface ProfileView {
  id: string;
  at: Date;
  viewer: string;
  pupil: string;
}

export interface RefusedAddresses {
  addresses: Array<RefusedAddress>;
}

export interface SaveGroup {
  id: string | null;
  name: string;
}

export interface SaveGroupcall {
  groupcallId: string;
  secret: string | null;
}

export interface SavedGroupcall {
  groupcallId: string;
}

export interface SavePupil {
  id: string | null;
  forename: string;
  surname: string;
  email: string | null;
  parentEmail: string | null;
  parentLanguage: string | null;
  upn: string | null;
  yearGroupId: string | null;
  formGroupId: string | null;
  classIds: Array<string>;
}

export interface SchoolSettings {
  name: string;
  postcode: string | null;
  type: 'SCHOOL' | 'BUSINESS';
  notifyParentsGeneral: boolean;
  notifyParentsAssignment: boolean;
  notificationsFrequency: 'DAILY' | 'WEEKLY' | 'IMMEDIATELY';
  assistantHistory: boolean;
  reachPixel: boolean;
}

export interface SaveStaff {
  id: string | null;
  forename: string;
  surname: string;
  email: string;
  role: string;
  classIds: Array<string>;
  activated: boolean;
  disabled: boolean;
}

export interface SaveWonde {
  wondeId: string;
  token: string | null;
}

export interface SavedWonde {
  wondeId: string;
  schoolName: string | null;
}

export interface SyncNow {
  delta: boolean | null;
}

export interface SyncQueued {
  queued: boolean;
}

export interface FormatAnswerInput {
  taskId: string;
  questionId: string;
  text: string;
}

export interface FormattedAnswer {
  text: string;
}

export interface AssistantQueryId {
  id: string;
}

export interface AssistantHistory {
  enabled: boolean;
  items: Array<AssistantHistoryItem>;
}

export interface AssistantHistoryItem {
  id: string;
  createdAt: Date;
  question: string;
  answer: string | null;
  context: string | null;
}

export interface AcceptSuggestionInput {
  id: string;
  sentiment: string | null;
}

export interface BankCommentView {
  id: string;
  text: string;
  sentiment: 'NEUTRAL' | 'POSITIVE' | 'NEGATIVE';
  tags: Array<string>;
  useCount: number;
  lastUsedAt: Date | null;
  createdAt: Date;
  shelf: 'MINE' | 'SCHOOL' | 'PROPOSED';
  proposedBy: string | null;
  canChange: boolean;
}

export interface AddBankCommentInput {
  text: string;
  sentiment: string;
  tags: Array<string>;
  school: boolean;
}

export interface DeleteBankCommentInput {
  id: string;
}

export interface SuggestionInput {
  id: string;
}

export interface ExportBankInput {
  shelf: 'MINE' | 'SCHOOL' | 'PROPOSED';
}

export interface ExportedBank {
  filename: string;
  csv: string;
  rows: number;
}

export interface ImportBankInput {
  csv: string;
}

export interface ImportedBank {
  imported: number;
  skipped: number;
}

export interface ListBankInput {
  shelf: 'MINE' | 'SCHOOL' | 'PROPOSED';
  search: string;
  sort: 'USE' | 'NEWEST';
}

export interface BankListing {
  items: Array<BankCommentView>;
  total: number;
  canReview: boolean;
  proposedCount: number;
}

export interface ProposeBankCommentInput {
  id: string;
}

export interface ReviewBankCommentInput {
  id: string;
  approve: boolean;
}

export interface ReviewedBankComment {
  id: string;
  approved: boolean;
}

export interface SearchBankInput {
  query: string;
}

export interface PhraseSuggestionView {
  id: string;
  text: string;
  count: number;
}

export interface UpdateBankCommentInput {
  id: string;
  text: string;
  sentiment: string;
  tags: Array<string>;
}

export interface UseBankCommentInput {
  id: string;
}

export interface UsedBankComment {
  id: string;
  useCount: number;
}

export interface DashboardSummary {
  toMark: number;
  oldestToMark: Array<WaitingSubmission>;
  dueSoon: Array<DueAssignment>;
  scheduled: Array<ScheduledNotification>;
}

export interface WaitingSubmission {
  submissionId: string;
  studentId: string;
  studentName: string;
  notificationTitle: string;
  receivedAt: Date;
}

export interface DueAssignment {
  notificationId: string;
  title: string;
  submissionDueDate: Date;
  received: number;
  expected: number;
}

export interface ScheduledNotification {
  notificationId: string;
  title: string;
  kind: string;
  sendDate: Date;
}

export interface FeedbackListInput {
  notificationId: string | null;
  classId: string | null;
}

export interface FeedbackHub {
  items: Array<HubItem>;
  marked: Array<MarkedItem>;
  markedCount: number;
  waitingCount: number;
  waitingNext: string | null;
  markedNext: string | null;
  held: Array<HeldGroup>;
  notifications: Array<FilterOption>;
  classes: Array<FilterOption>;
}

export interface HubItem {
  submissionId: string;
  studentId: string;
  studentForename: string;
  studentSurname: string;
  notificationId: string;
  notificationTitle: string;
  receivedAt: Date;
  late: boolean;
  content: string | null;
  files: Array<HubFile>;
}

export interface HubFile {
  id: string;
  filename: string;
  sizeBytes: number;
  url: string;
}

export interface MarkedItem {
  submissionId: string;
  studentId: string;
  studentForename: string;
  studentSurname: string;
  notificationId: string;
  notificationTitle: string;
  receivedAt: Date;
  late: boolean;
  content: string | null;
  files: Array<HubFile>;
  markedAt: Date;
  feedback: string;
  feedbackSentiment: 'NEUTRAL' | 'POSITIVE' | 'NEGATIVE';
  releasedAt: Date | null;
  releaseAt: Date | null;
  release: 'RELEASED' | 'ON_DATE' | 'BY_HAND';
}

export interface HeldGroup {
  notificationId: string;
  title: string;
  count: number;
  release: 'ON_DATE' | 'BY_HAND';
  releaseAt: Date | null;
}

export interface FilterOption {
  id: string;
  name: string;
}

export interface FeedbackListMoreInput {
  notificationId: string | null;
  classId: string | null;
  list: 'WAITING' | 'MARKED';
  cursor: string;
}

export interface FeedbackPage {
  waiting: Array<HubItem>;
  marked: Array<MarkedItem>;
  nextCursor: string | null;
}

export interface MarkInput {
  submissionId: string;
  feedback: string;
  sentiment: string;
  idempotencyKey?: string | null;
}

export interface MarkedSubmission {
  submissionId: string;
  markedAt: Date;
  feedback: string;
  feedbackSentiment: 'NEUTRAL' | 'POSITIVE' | 'NEGATIVE';
  releasedAt: Date | null;
}

export interface ReleaseInput {
  notificationId: string;
}

export interface ReleasedFeedback {
  released: number;
}

export interface WithdrawInput {
  submissionId: string;
  idempotencyKey?: string | null;
}

export interface WithdrawnMark {
  submissionId: string;
}

export interface InsightsFiltersInput {
  schoolId: string | null;
}

export interface InsightsFilters {
  scope: string;
  schools: Array<InsightsChoice>;
  yearGroups: Array<InsightsChoice>;
  formGroups: Array<InsightsChoice>;
  classes: Array<InsightsChoice>;
  teachers: Array<InsightsChoice>;
}

export interface InsightsChoice {
  id: string;
  name: string;
}

export interface InsightsInput {
  from: string | null;
  to: string | null;
  schoolId: string | null;
  yearGroupId: string | null;
  formGroupId: string | null;
  classId: string | null;
  teacherId: string | null;
}

export interface InsightsOverview {
  from: string;
  to: string;
  scope: string;
  handIns: Array<HandInWeek>;
  turnaroundByTeacher: Array<TurnaroundRow>;
  turnaroundByClass: Array<TurnaroundRow>;
  turnaroundBySchool: Array<TurnaroundRow>;
  sentiment: Array<SentimentWeek>;
  reach: Array<ReachRow>;
  workedOutAt: Date;
  refreshing: boolean;
}

export interface HandInWeek {
  week: string;
  assigned: number;
  handedIn: number;
  onTime: number;
  handInRate: number | null;
  onTimeRate: number | null;
}

export interface TurnaroundRow {
  id: string;
  name: string;
  marks: number;
  medianHours: number;
  p90Hours: number;
}

export interface SentimentWeek {
  week: string;
  positive: number;
  neutral: number;
  negative: number;
}

export interface ReachRow {
  messageType: string;
  reached: number;
  decided: number;
  share: number | null;
}

export interface InsightsPupilsInput {
  filters: InsightsInput;
  last: number | null;
}

export interface PupilToLookAt {
  id: string;
  name: string;
  formGroup: string | null;
  missed: number | null;
  negativeMarks: number | null;
  parentsNotReached: number | null;
}

export interface StudentInsightsInput {
  id: string;
  from: string | null;
  to: string | null;
}

export interface StudentInsights {
  from: string;
  to: string;
  handIns: Array<StudentHandInWeek>;
  turnaround: Array<StudentTurnaroundWeek>;
  sentiment: Array<SentimentWeek>;
}

export interface StudentHandInWeek {
  week: string;
  handedIn: number;
  onTime: number;
  missing: number;
}

export interface StudentTurnaroundWeek {
  week: string;
  marks: number;
  medianHours: number | null;
}

export interface CustomerSessionOutput {
  clientSecret: string;
  clientReferenceId: string;
}

export interface SeatInfo {
  seats: number | null;
  used: number;
  pending: number;
  available: number | null;
}

export interface TaskIdInput {
  taskId: string;
}

export interface TaskContentItem {
  id: string;
  kind: string;
  name: string;
  contentType: string | null;
  status: string;
  processing: string;
  error: string | null;
  text: string | null;
  arrived: boolean;
  size: number | null;
  createdAt: Date;
}

export interface VoiceNoteKeyInput {
  key: string;
  idempotencyKey?: string | null;
}

export interface VoiceNoteId {
  id: string;
}

export interface UploadTaskFileInput {
  filename: string;
  contentType: string;
  taskId: string;
  size?: number | null;
  idempotencyKey?: string | null;
}

export interface UploadTicket {
  key: string;
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface UploadVoiceNoteInput {
  filename: string;
  contentType: string;
  size?: number | null;
  taskId?: string | null;
  idempotencyKey?: string | null;
}

export interface BrowseInput {
  driveId: string | null;
  itemId: string | null;
}

export interface BrowseAnswer {
  items: Array<MicrosoftItem>;
}

export interface MicrosoftItem {
  id: string;
  driveId: string | null;
  name: string;
  folder: boolean;
  size: number | null;
  mimeType: string | null;
  modified: string | null;
}

export interface DocumentLibrary {
  driveId: string;
  name: string;
}

export interface MeetingRecording {
  recordingId: string;
  meetingId: string;
  organiserId: string;
  createdAt: string | null;
  endedAt: string | null;
  transcriptId: string | null;
}

export interface MicrosoftStatus {
  configured: boolean;
  connected: boolean;
  setup: string | null;
}

export interface AnalyseImageInput {
  images: Array<string>;
  prompt: string;
  mode: 'FEEDBACK' | 'NOTES';
  idempotencyKey?: string | null;
}

export interface AnalyseImageOutput {
  text: string;
}

export interface CountRecipients {
  filters: NotificationFilters;
}

export interface NotificationFilters {
  classes: Array<string>;
  yearGroups: Array<string>;
  formGroups: Array<string>;
  students: Array<string>;
}

export interface RecipientCount {
  pupils: number;
}

export interface CreateNotification {
  type: 'GENERAL' | 'ASSIGNMENT';
  title: string;
  customTitle: string | null;
  body: string;
  sendDate: Date | null;
  submissionDueDate: Date | null;
  sendToPupil: boolean;
  sendToParent: boolean;
  filters: NotificationFilters;
  feedbackRelease?: 'WHEN_MARKED' | 'ON_DATE' | 'BY_HAND' | null;
  feedbackReleaseAt?: Date | null;
  idempotencyKey?: string | null;
}

export interface NotificationDetail {
  id: string;
  type: 'GENERAL' | 'ASSIGNMENT';
  title: string;
  customTitle: string | null;
  body: string;
  sendDate: Date | null;
  submissionDueDate: Date | null;
  sendToPupil: boolean;
  sendToParent: boolean;
  filters: NotificationFilters;
  status: 'SCHEDULED' | 'IN_PROGRESS' | 'DELIVERED' | 'ENDED';
  senderName: string;
  createdAt: Date;
  updatedAt: Date;
  recipients: number;
  submissions: number;
  marked: number;
  editable: boolean;
  feedbackRelease: 'WHEN_MARKED' | 'ON_DATE' | 'BY_HAND';
  feedbackReleaseAt: Date | null;
  held: number;
}

export interface FilterOptions {
  classes: Array<AudienceOption>;
  yearGroups: Array<AudienceOption>;
  formGroups: Array<AudienceOption>;
  students: Array<AudiencePupil>;
}

export interface AudienceOption {
  id: string;
  name: string;
  pupils: number;
}

export interface AudiencePupil {
  id: string;
  name: string;
  yearGroup: string | null;
  formGroup: string | null;
}

export interface NotificationId {
  id: string;
}

export interface ListNotifications {
  search: string | null;
  cursor: string | null;
  pageSize: number | null;
}

export interface ActivityPage {
  items: Array<ActivityItem>;
  total: number;
  pageSize: number;
  nextCursor: string | null;
}

export interface ActivityItem {
  id: string;
  type: 'GENERAL' | 'ASSIGNMENT';
  title: string;
  customTitle: string | null;
  senderName: string;
  createdAt: Date;
  sendDate: Date | null;
  submissionDueDate: Date | null;
  status: 'SCHEDULED' | 'IN_PROGRESS' | 'DELIVERED' | 'ENDED';
  recipients: number;
  submissions: number;
  marked: number;
  held: number;
}

export interface MessageLink {
  token: string;
}

export interface PublicMessageView {
  school: string;
  title: string;
  body: string;
  submissionDueDate: Date | null;
  about: string;
  toParent: boolean;
}

export interface ReachInput {
  id: string;
  days: number | null;
  show: string | null;
  page: number | null;
}

export interface NotificationReach {
  recorded: boolean;
  days: number;
  counts: Array<ReachCount>;
  notReached: number;
  total: number;
  shown: number;
  page: number;
  pageSize: number;
  entries: Array<ReachEntry>;
}

export interface ReachCount {
  state: string;
  label: string;
  count: number;
}

export interface ReachEntry {
  id: string;
  studentId: string;
  forename: string;
  surname: string;
  formGroup: string | null;
  audience: string;
  address: string | null;
  state: string;
  reason: string;
  sentAt: Date | null;
  openedAt: Date | null;
  notReached: boolean;
}

export interface NotificationRecipient {
  studentId: string;
  forename: string;
  surname: string;
  sentAt: Date | null;
  state: string;
}

export interface NotificationSubmission {
  id: string;
  studentId: string;
  forename: string;
  surname: string;
  receivedAt: Date | null;
  markedAt: Date | null;
  sentiment: string | null;
}

export interface UpdateNotification {
  id: string;
  title: string;
  customTitle: string | null;
  body: string;
  sendDate: Date | null;
  submissionDueDate: Date | null;
  sendToPupil: boolean;
  sendToParent: boolean;
  filters: NotificationFilters;
  feedbackRelease?: 'WHEN_MARKED' | 'ON_DATE' | 'BY_HAND' | null;
  feedbackReleaseAt?: Date | null;
}

export interface AdminOrganisation {
  id: string;
  name: string;
  postcode: string | null;
  orgType: string;
  seats: number | null;
  plan: string;
  stripeProductId: string | null;
  redirectToLeaders: boolean;
  trustId: string | null;
  trustName: string | null;
  users: number;
  pupils: number;
}

export interface OrganisationList {
  organisations: Array<OrganisationItem>;
}

export interface OrganisationItem {
  id: string;
  name: string;
  postcode: string | null;
  orgType: string;
  trustName: string | null;
  users: number;
  pupils: number;
  recentTasks: number;
  active: boolean;
  home: boolean;
}

export interface SaveOrganisationInput {
  id: string | null;
  name: string;
  postcode: string | null;
  orgType: string;
  seats: number | null;
  plan: string;
  redirectToLeaders: boolean;
  trustId: string | null;
  newTrustName: string | null;
}

export interface SwitchInput {
  schoolId: string;
}

export interface SwitchAnswer {
  schoolId: string;
  name: string;
}

export interface TrustItem {
  id: string;
  name: string;
}

export interface PreferencesToken {
  token: string;
}

export interface PublicPreferences {
  email: string;
  general: boolean;
  assignment: boolean;
  frequency: 'DAILY' | 'WEEKLY' | 'IMMEDIATELY';
  language: string;
}

export interface UpdatePreferencesInput {
  token: string;
  general: boolean;
  assignment: boolean;
  frequency: 'DAILY' | 'WEEKLY' | 'IMMEDIATELY';
  language: string;
}

export interface ReportIdInput {
  id: string;
}

export interface ReportDetail {
  id: string;
  title: string;
  instructions: string;
  body: string;
  taskIds: Array<string>;
  voiceNoteIds: Array<string>;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReportListInput {
  cursor: string | null;
}

export interface ReportPage {
  reports: Array<ReportListItem>;
  total: number;
  nextCursor: string | null;
}

export interface ReportListItem {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface SaveReportInput {
  id?: string | null;
  title: string;
  instructions?: string;
  body: string;
  taskIds?: Array<string>;
  voiceNoteIds?: Array<string>;
}

export interface ReportSourcesInput {
  search?: string | null;
  from?: string | null;
  to?: string | null;
  tag?: string | null;
}

export interface ReportSources {
  tasks: Array<SourceTask>;
  tasksTotal: number;
  tasksNext: string | null;
  tags: Array<string>;
  voiceNotes: Array<SourceVoiceNote>;
  voiceNotesTotal: number;
  voiceNotesNext: string | null;
}

export interface SourceTask {
  id: string;
  title: string;
  tags: Array<string>;
  draft: boolean;
  date: Date;
}

export interface SourceVoiceNote {
  id: string;
  filename: string;
  createdAt: Date;
  hasTranscript: boolean;
  preview: string | null;
}

export interface ReportSourcesMoreInput {
  list: 'TASKS' | 'VOICE_NOTES';
  cursor: string;
  search?: string | null;
  from?: string | null;
  to?: string | null;
  tag?: string | null;
}

export interface ReportSourcesPage {
  tasks: Array<SourceTask>;
  voiceNotes: Array<SourceVoiceNote>;
  nextCursor: string | null;
}

export interface SchoolAdmin {
  name: string;
  email: string;
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

export interface AddCommentInput {
  studentId: string;
  comment: string;
  idempotencyKey?: string | null;
}

export interface StudentCommentView {
  id: string;
  comment: string;
  createdAt: Date;
  authorId: string;
  authorName: string;
  mine: boolean;
}

export interface StudentIdInput {
  id: string;
}

export interface StudentProfile {
  id: string;
  forename: string;
  surname: string;
  email: string | null;
  parentEmail: string | null;
  upn: string | null;
  yearGroup: string | null;
  formGroup: string | null;
  classes: Array<ClassName>;
  refusedAddresses: Array<RefusedAddress>;
}

export interface ClassName {
  id: string;
  name: string;
}

export interface TimelineEntry {
  submissionId: string;
  notificationId: string;
  notificationTitle: string;
  sendDate: Date | null;
  submissionDueDate: Date | null;
  receivedAt: Date | null;
  late: boolean;
  markedAt: Date | null;
  feedback: string | null;
  feedbackSentiment: 'NEUTRAL' | 'POSITIVE' | 'NEGATIVE' | null;
  feedbackHeld: boolean;
}

export interface DeepgramKey {
  key: string;
  scheme: 'bearer' | 'token';
  listenUrl: string;
  expiresAt: Date;
}

export interface SubmissionLink {
  id: string;
  token: string;
}

export interface PublicSubmissionView {
  id: string;
  assignment: PublicAssignment;
  pupilForename: string;
  content: string | null;
  files: Array<PublicFile>;
  receivedAt: Date | null;
  late: boolean;
  markedAt: Date | null;
  feedback: string | null;
  feedbackSentiment: 'NEUTRAL' | 'POSITIVE' | 'NEGATIVE' | null;
  feedbackPending: boolean;
}

export interface PublicAssignment {
  title: string;
  customTitle: string | null;
  body: string;
  submissionDueDate: Date | null;
  schoolName: string;
}

export interface PublicFile {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  url: string;
}

export interface SubmitInput {
  id: string;
  token: string;
  content: string;
}

export interface ContactInput {
  subject: string;
  message: string;
  page: string | null;
}

export interface ContactResult {
  supportEmail: string;
  copyTo: string;
  priority: boolean;
}

export interface Features {
  photoAnalysis: boolean;
  dictation: boolean;
  chat: boolean;
  billing: BillingFeature | null;
}

export interface BillingFeature {
  publishableKey: string;
  pricingTableId: string;
  pricingTableScriptUrl: string;
}

export interface Setup {
  capabilities: Array<Capability>;
}

export interface Capability {
  key: string;
  name: string;
  purpose: string;
  on: boolean;
  status: string;
  settings: Array<Setting>;
  docs: string;
}

export interface Setting {
  name: string;
  set: boolean;
  required: boolean;
}

export interface Support {
  email: string;
}

export interface SystemTimeInput {
  clientTime: Date;
}

export interface SystemTimeOutput {
  clientTime: Date;
  serverTime: Date;
}

export interface CollaboratorInput {
  id: string;
  userId: string;
}

export interface PersonView {
  id: string;
  name: string;
}

export interface TaskId {
  id: string;
}

export interface ColleagueView {
  id: string;
  name: string;
  email: string;
  collaborator: boolean;
}

export interface CreateTaskInput {
  title: string;
  templateId: string;
  tags?: Array<string> | null;
}

export interface CreatedTask {
  id: string;
}

export interface TaskView {
  id: string;
  title: string;
  tags: Array<string>;
  draft: boolean;
  submittedAt: Date | null;
  updatedAt: Date;
  access: 'OWNER' | 'COLLABORATOR';
  template: TaskTemplateView;
  questions: Array<TaskQuestionView>;
  answers: Array<AnswerView>;
  collaborators: Array<PersonView>;
  plan: 'BASIC' | 'PRO';
}

export interface TaskTemplateView {
  id: string;
  title: string;
}

export interface TaskQuestionView {
  id: string;
  text: string;
  required: boolean;
  position: number;
}

export interface AnswerView {
  questionId: string;
  answer: string;
  version: number;
  updatedByName: string | null;
  updatedAt: Date;
}

export interface ListTasksInput {
  search?: string | null;
  tag?: string | null;
  status?: 'DRAFT' | 'SUBMITTED' | null;
  cursor?: string | null;
}

export interface TaskPage {
  tasks: Array<TaskSummary>;
  total: number;
  nextCursor: string | null;
  allTags: Array<string>;
}

export interface TaskSummary {
  id: string;
  title: string;
  tags: Array<string>;
  draft: boolean;
  submittedAt: Date | null;
  updatedAt: Date;
  templateTitle: string;
  ownerName: string;
  shared: boolean;
}

export interface SaveTaskInput {
  id: string;
  title?: string | null;
  tags?: Array<string> | null;
  answers: Array<AnswerInput>;
  idempotencyKey?: string | null;
}

export interface AnswerInput {
  questionId: string;
  answer: string;
  baseVersion: number;
}

export interface SaveTaskResult {
  answers: Array<AnswerView>;
  conflicts: Array<AnswerConflict>;
  updatedAt: Date;
}

export interface AnswerConflict {
  questionId: string;
  theirAnswer: string;
  theirVersion: number;
  updatedByName: string | null;
}

export interface SubmitTaskInput {
  id: string;
  idempotencyKey?: string | null;
}

export interface SubmittedTask {
  submittedAt: Date;
}

export interface TemplateChoice {
  id: string;
  title: string;
  questionCount: number;
}

export interface AddPhotoNotesInput {
  taskId: string;
  name: string;
  notes: string;
  idempotencyKey?: string | null;
}

export interface AddRecordingInput {
  taskId: string;
  key: string;
  transcript?: string | null;
  idempotencyKey?: string | null;
}

export interface AddVoiceNotesInput {
  taskId: string;
  voiceNoteIds: Array<string>;
  idempotencyKey?: string | null;
}

export interface AddedItems {
  added: number;
}

export interface ImportMicrosoftInput {
  taskId: string;
  files: Array<ImportMicrosoftFile>;
  recordings: Array<ImportMicrosoftRecording>;
}

export interface ImportMicrosoftFile {
  driveId: string | null;
  itemId: string;
  name: string;
  mimeType: string | null;
}

export interface ImportMicrosoftRecording {
  meetingId: string;
  recordingId: string;
  transcriptId: string | null;
  name: string;
}

export interface ImportMicrosoftAnswer {
  itemIds: Array<string>;
}

export interface TaskItemInput {
  taskId: string;
  itemId: string;
}

export interface RemovedItem {
  id: string;
}

export interface PickerInput {
  taskId: string;
  cursor: string | null;
}

export interface PickablePage {
  notes: Array<PickableVoiceNote>;
  total: number;
  nextCursor: string | null;
}

export interface PickableVoiceNote {
  id: string;
  filename: string;
  size: number;
  createdAt: Date;
  added: boolean;
}

export interface TemplateIdInput {
  id: string;
}

export interface DeletedTemplate {
  outcome: 'DELETED' | 'ARCHIVED';
}

export interface SavedTemplate {
  id: string;
}

export interface TemplateDetail {
  id: string;
  title: string;
  tags: Array<string>;
  visibility: 'PERSONAL' | 'SCHOOL' | 'MAT';
  ownerName: string;
  archived: boolean;
  canEdit: boolean;
  taskCount: number;
  updatedAt: Date;
  questions: Array<TemplateQuestion>;
}

export interface TemplateQuestion {
  id: string;
  text: string;
  type: 'TEXTAREA';
  required: boolean;
  position: number;
}

export interface ListTemplatesInput {
  search?: string | null;
  visibility?: 'PERSONAL' | 'SCHOOL' | 'MAT' | null;
  archived?: boolean | null;
}

export interface TemplateListItem {
  id: string;
  title: string;
  tags: Array<string>;
  visibility: 'PERSONAL' | 'SCHOOL' | 'MAT';
  ownerName: string;
  questionCount: number;
  taskCount: number;
  archived: boolean;
  updatedAt: Date;
  canEdit: boolean;
}

export interface SaveTemplateInput {
  id?: string | null;
  title: string;
  tags: Array<string>;
  visibility: 'PERSONAL' | 'SCHOOL' | 'MAT';
  questions: Array<SaveTemplateQuestionInput>;
}

export interface SaveTemplateQuestionInput {
  id?: string | null;
  text: string;
  required: boolean;
}

export interface UploadRef {
  key: string;
  uploadId: string;
}

export interface AbortedUpload {
  key: string;
}

export interface CompleteUploadInput {
  key: string;
  uploadId: string;
  parts: Array<CompletedPart>;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

export interface CompletedUpload {
  key: string;
  size: number;
}

export interface UploadedParts {
  parts: Array<UploadedPart>;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

export interface SignPartsInput {
  key: string;
  uploadId: string;
  partNumbers: Array<number>;
}

export interface SignedParts {
  parts: Array<SignedPartUrl>;
}

export interface SignedPartUrl {
  partNumber: number;
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StartUploadInput {
  kind: 'voiceNote' | 'file' | 'taskFile';
  filename: string;
  contentType: string;
  size: number;
  taskId?: string | null;
  idempotencyKey?: string | null;
}

export interface StartedUpload {
  key: string;
  uploadId: string;
  partSize: number;
  partCount: number;
}

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

export interface PasswordChanged {
  changedAt: Date;
}

export interface BillingPortalInput {
  returnPath: string;
}

export interface BillingPortalOutput {
  url: string;
}

export interface InviteUserInput {
  forename: string;
  surname: string;
  email: string;
  role: string | null;
  schoolId: string | null;
}

export interface ManagedUser {
  id: string;
  forename: string;
  surname: string;
  email: string;
  role: string;
  status: string;
  lastActive: Date | null;
  leader: boolean;
  schoolId: string | null;
  schoolName: string | null;
}

export interface InviteFromCsvInput {
  csv: string;
  schoolId: string | null;
}

export interface InviteFromCsvResult {
  invited: number;
}

export interface UserListInput {
  search: string | null;
  cursor: string | null;
}

export interface UserPage {
  users: Array<ManagedUser>;
  total: number;
  nextCursor: string | null;
}

export interface ListAllUsersInput {
  search: string | null;
  schoolId: string | null;
  role: string | null;
  cursor: string | null;
}

export interface AllUsers {
  page: UserPage;
  schools: Array<SchoolOption>;
}

export interface SchoolOption {
  id: string;
  name: string;
}

export interface UploadedFile {
  key: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: Date;
  expiresAt: Date | null;
  url: string;
}

export interface MarkTutorialCompleteFields {
  complete: true;
}

export interface UserIdInput {
  id: string;
}

export interface SetDisabledInput {
  id: string;
  disabled: boolean;
}

export interface SetLeaderInput {
  id: string;
  leader: boolean;
}

export interface SetRoleInput {
  id: string;
  role: string;
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

export interface UploadFileInput {
  filename: string;
  contentType: string;
  size?: number | null;
  idempotencyKey?: string | null;
}

export interface VoiceNoteListInput {
  cursor: string | null;
}

export interface VoiceNotePage {
  notes: Array<VoiceNote>;
  total: number;
  nextCursor: string | null;
}

export interface VoiceNote {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: Date;
  url: string;
}

export interface RenameVoiceNoteInput {
  id: string;
  filename: string;
}

export interface RenamedVoiceNote {
  id: string;
  filename: string;
}

/** Every procedure at /api/trpc: its kind, input and output. */
export interface RpcProcedures {
  'account.confirmEmail': { kind: 'mutation'; input: ConfirmEmailInput; output: ConfirmEmailAnswer };
  'account.register': { kind: 'mutation'; input: RegisterInput; output: Done };
  'account.requestPasswordReset': { kind: 'mutation'; input: RequestPasswordResetInput; output: Done };
  'account.resetPassword': { kind: 'mutation'; input: ResetPasswordInput; output: Done };
  'admin.erasePupil': { kind: 'mutation'; input: ErasePupil; output: Done };
  'admin.importPupils': { kind: 'mutation'; input: ImportPupils; output: ImportResult };
  'admin.listClasses': { kind: 'query'; input: void; output: Array<Group> };
  'admin.listFormGroups': { kind: 'query'; input: void; output: Array<Group> };
  'admin.listPupils': { kind: 'query'; input: ListPupils; output: PupilPage };
  'admin.listStaff': { kind: 'query'; input: ListStaff | null; output: StaffPage };
  'admin.listYearGroups': { kind: 'query'; input: void; output: Array<Group> };
  'admin.misSync': { kind: 'query'; input: void; output: MisSyncStatus };
  'admin.profileViews': { kind: 'query'; input: ProfileViewsInput; output: ProfileViewPage };
  'admin.refusedAddresses': { kind: 'query'; input: void; output: RefusedAddresses };
  'admin.saveClass': { kind: 'mutation'; input: SaveGroup; output: Group };
  'admin.saveFormGroup': { kind: 'mutation'; input: SaveGroup; output: Group };
  'admin.saveGroupcall': { kind: 'mutation'; input: SaveGroupcall; output: SavedGroupcall };
  'admin.savePupil': { kind: 'mutation'; input: SavePupil; output: Pupil };
  'admin.saveSchoolSettings': { kind: 'mutation'; input: SchoolSettings; output: SchoolSettings };
  'admin.saveStaff': { kind: 'mutation'; input: SaveStaff; output: Staff };
  'admin.saveWonde': { kind: 'mutation'; input: SaveWonde; output: SavedWonde };
  'admin.saveYearGroup': { kind: 'mutation'; input: SaveGroup; output: Group };
  'admin.schoolSettings': { kind: 'query'; input: void; output: SchoolSettings };
  'admin.syncNow': { kind: 'mutation'; input: SyncNow; output: SyncQueued };
  'ai.formatAnswer': { kind: 'mutation'; input: FormatAnswerInput; output: FormattedAnswer };
  'assistant.deleteQuery': { kind: 'mutation'; input: AssistantQueryId; output: Done };
  'assistant.history': { kind: 'query'; input: void; output: AssistantHistory };
  'commentBank.acceptSuggestion': { kind: 'mutation'; input: AcceptSuggestionInput; output: BankCommentView };
  'commentBank.add': { kind: 'mutation'; input: AddBankCommentInput; output: BankCommentView };
  'commentBank.delete': { kind: 'mutation'; input: DeleteBankCommentInput; output: true };
  'commentBank.dismissSuggestion': { kind: 'mutation'; input: SuggestionInput; output: true };
  'commentBank.exportCsv': { kind: 'query'; input: ExportBankInput; output: ExportedBank };
  'commentBank.importCsv': { kind: 'mutation'; input: ImportBankInput; output: ImportedBank };
  'commentBank.list': { kind: 'query'; input: ListBankInput; output: BankListing };
  'commentBank.propose': { kind: 'mutation'; input: ProposeBankCommentInput; output: BankCommentView };
  'commentBank.review': { kind: 'mutation'; input: ReviewBankCommentInput; output: ReviewedBankComment };
  'commentBank.search': { kind: 'query'; input: SearchBankInput; output: Array<BankCommentView> };
  'commentBank.suggestions': { kind: 'query'; input: void; output: Array<PhraseSuggestionView> };
  'commentBank.update': { kind: 'mutation'; input: UpdateBankCommentInput; output: BankCommentView };
  'commentBank.use': { kind: 'mutation'; input: UseBankCommentInput; output: UsedBankComment };
  'dashboard.summary': { kind: 'query'; input: void; output: DashboardSummary };
  'feedback.list': { kind: 'query'; input: FeedbackListInput; output: FeedbackHub };
  'feedback.listMore': { kind: 'query'; input: FeedbackListMoreInput; output: FeedbackPage };
  'feedback.mark': { kind: 'mutation'; input: MarkInput; output: MarkedSubmission };
  'feedback.release': { kind: 'mutation'; input: ReleaseInput; output: ReleasedFeedback };
  'feedback.withdraw': { kind: 'mutation'; input: WithdrawInput; output: WithdrawnMark };
  'insights.filters': { kind: 'query'; input: InsightsFiltersInput | null; output: InsightsFilters };
  'insights.overview': { kind: 'query'; input: InsightsInput; output: InsightsOverview };
  'insights.pupils': { kind: 'query'; input: InsightsPupilsInput; output: Array<PupilToLookAt> };
  'insights.student': { kind: 'query'; input: StudentInsightsInput; output: StudentInsights };
  'leader.createCustomerSession': { kind: 'mutation'; input: void; output: CustomerSessionOutput };
  'leader.getSeatInfo': { kind: 'query'; input: void; output: SeatInfo };
  'leader.listTaskFiles': { kind: 'query'; input: TaskIdInput; output: Array<TaskContentItem> };
  'leader.transferVoiceNoteToPersonalFolder': { kind: 'mutation'; input: VoiceNoteKeyInput; output: VoiceNoteId };
  'leader.uploadTaskFile': { kind: 'mutation'; input: UploadTaskFileInput; output: UploadTicket };
  'leader.uploadVoiceNote': { kind: 'mutation'; input: UploadVoiceNoteInput; output: UploadTicket };
  'microsoft.browse': { kind: 'query'; input: BrowseInput; output: BrowseAnswer };
  'microsoft.disconnect': { kind: 'mutation'; input: void; output: boolean };
  'microsoft.libraries': { kind: 'query'; input: void; output: Array<DocumentLibrary> };
  'microsoft.recordings': { kind: 'query'; input: void; output: Array<MeetingRecording> };
  'microsoft.status': { kind: 'query'; input: void; output: MicrosoftStatus };
  'notification.analyseImage': { kind: 'mutation'; input: AnalyseImageInput; output: AnalyseImageOutput };
  'notification.countRecipients': { kind: 'query'; input: CountRecipients; output: RecipientCount };
  'notification.create': { kind: 'mutation'; input: CreateNotification; output: NotificationDetail };
  'notification.filterOptions': { kind: 'query'; input: void; output: FilterOptions };
  'notification.get': { kind: 'query'; input: NotificationId; output: NotificationDetail };
  'notification.list': { kind: 'query'; input: ListNotifications; output: ActivityPage };
  'notification.publicMessage': { kind: 'query'; input: MessageLink; output: PublicMessageView };
  'notification.reach': { kind: 'query'; input: ReachInput; output: NotificationReach };
  'notification.recipients': { kind: 'query'; input: NotificationId; output: Array<NotificationRecipient> };
  'notification.submissions': { kind: 'query'; input: NotificationId; output: Array<NotificationSubmission> };
  'notification.update': { kind: 'mutation'; input: UpdateNotification; output: NotificationDetail };
  'organisation.adminList': { kind: 'query'; input: void; output: Array<AdminOrganisation> };
  'organisation.list': { kind: 'query'; input: void; output: OrganisationList };
  'organisation.save': { kind: 'mutation'; input: SaveOrganisationInput; output: AdminOrganisation };
  'organisation.switch': { kind: 'mutation'; input: SwitchInput; output: SwitchAnswer };
  'organisation.trusts': { kind: 'query'; input: void; output: Array<TrustItem> };
  'preferences.get': { kind: 'query'; input: PreferencesToken; output: PublicPreferences };
  'preferences.update': { kind: 'mutation'; input: UpdatePreferencesInput; output: PublicPreferences };
  'report.delete': { kind: 'mutation'; input: ReportIdInput; output: Done };
  'report.get': { kind: 'query'; input: ReportIdInput; output: ReportDetail };
  'report.list': { kind: 'query'; input: ReportListInput | null; output: ReportPage };
  'report.save': { kind: 'mutation'; input: SaveReportInput; output: ReportIdInput };
  'report.sources': { kind: 'query'; input: ReportSourcesInput | null; output: ReportSources };
  'report.sourcesMore': { kind: 'query'; input: ReportSourcesMoreInput; output: ReportSourcesPage };
  'school.admins': { kind: 'query'; input: void; output: Array<SchoolAdmin> };
  'school.listStudents': { kind: 'query'; input: void; output: Array<StudentSummary> };
  'student.addComment': { kind: 'mutation'; input: AddCommentInput; output: StudentCommentView };
  'student.comments': { kind: 'query'; input: StudentIdInput; output: Array<StudentCommentView> };
  'student.deleteComment': { kind: 'mutation'; input: StudentIdInput; output: Done };
  'student.get': { kind: 'query'; input: StudentIdInput; output: StudentProfile };
  'student.timeline': { kind: 'query'; input: StudentIdInput; output: Array<TimelineEntry> };
  'submission.getDeepgramKey': { kind: 'mutation'; input: void; output: DeepgramKey };
  'submission.public': { kind: 'query'; input: SubmissionLink; output: PublicSubmissionView };
  'submission.submit': { kind: 'mutation'; input: SubmitInput; output: PublicSubmissionView };
  'support.contact': { kind: 'mutation'; input: ContactInput; output: ContactResult };
  'system.features': { kind: 'query'; input: void; output: Features };
  'system.setup': { kind: 'query'; input: void; output: Setup };
  'system.support': { kind: 'query'; input: void; output: Support };
  'system.time': { kind: 'query'; input: SystemTimeInput; output: SystemTimeOutput };
  'task.addCollaborator': { kind: 'mutation'; input: CollaboratorInput; output: Array<PersonView> };
  'task.colleagues': { kind: 'query'; input: TaskId; output: Array<ColleagueView> };
  'task.create': { kind: 'mutation'; input: CreateTaskInput; output: CreatedTask };
  'task.delete': { kind: 'mutation'; input: TaskId; output: Done };
  'task.get': { kind: 'query'; input: TaskId; output: TaskView };
  'task.list': { kind: 'query'; input: ListTasksInput | null; output: TaskPage };
  'task.removeCollaborator': { kind: 'mutation'; input: CollaboratorInput; output: Array<PersonView> };
  'task.save': { kind: 'mutation'; input: SaveTaskInput; output: SaveTaskResult };
  'task.submit': { kind: 'mutation'; input: SubmitTaskInput; output: SubmittedTask };
  'task.templateChoices': { kind: 'query'; input: void; output: Array<TemplateChoice> };
  'taskContent.addPhotoNotes': { kind: 'mutation'; input: AddPhotoNotesInput; output: TaskContentItem };
  'taskContent.addRecording': { kind: 'mutation'; input: AddRecordingInput; output: TaskContentItem };
  'taskContent.addVoiceNotes': { kind: 'mutation'; input: AddVoiceNotesInput; output: AddedItems };
  'taskContent.importMicrosoft': { kind: 'mutation'; input: ImportMicrosoftInput; output: ImportMicrosoftAnswer };
  'taskContent.remove': { kind: 'mutation'; input: TaskItemInput; output: RemovedItem };
  'taskContent.retry': { kind: 'mutation'; input: TaskItemInput; output: TaskContentItem };
  'taskContent.voiceNotes': { kind: 'query'; input: PickerInput; output: PickablePage };
  'template.delete': { kind: 'mutation'; input: TemplateIdInput; output: DeletedTemplate };
  'template.duplicate': { kind: 'mutation'; input: TemplateIdInput; output: SavedTemplate };
  'template.get': { kind: 'query'; input: TemplateIdInput; output: TemplateDetail };
  'template.list': { kind: 'query'; input: ListTemplatesInput; output: Array<TemplateListItem> };
  'template.restore': { kind: 'mutation'; input: TemplateIdInput; output: SavedTemplate };
  'template.save': { kind: 'mutation'; input: SaveTemplateInput; output: SavedTemplate };
  'upload.abort': { kind: 'mutation'; input: UploadRef; output: AbortedUpload };
  'upload.complete': { kind: 'mutation'; input: CompleteUploadInput; output: CompletedUpload };
  'upload.listParts': { kind: 'query'; input: UploadRef; output: UploadedParts };
  'upload.signParts': { kind: 'mutation'; input: SignPartsInput; output: SignedParts };
  'upload.start': { kind: 'mutation'; input: StartUploadInput; output: StartedUpload };
  'user.changePassword': { kind: 'mutation'; input: ChangePasswordInput; output: PasswordChanged };
  'user.createBillingPortalSession': { kind: 'mutation'; input: BillingPortalInput; output: BillingPortalOutput };
  'user.feedbackHubCount': { kind: 'query'; input: void; output: number };
  'user.invite': { kind: 'mutation'; input: InviteUserInput; output: ManagedUser };
  'user.inviteFromCsv': { kind: 'mutation'; input: InviteFromCsvInput; output: InviteFromCsvResult };
  'user.list': { kind: 'query'; input: UserListInput | null; output: UserPage };
  'user.listAll': { kind: 'query'; input: ListAllUsersInput; output: AllUsers };
  'user.listFiles': { kind: 'query'; input: void; output: Array<UploadedFile> };
  'user.markTutorialComplete': { kind: 'mutation'; input: true | MarkTutorialCompleteFields; output: Done };
  'user.resendInvite': { kind: 'mutation'; input: UserIdInput; output: ManagedUser };
  'user.revokeInvite': { kind: 'mutation'; input: UserIdInput; output: boolean };
  'user.setDisabled': { kind: 'mutation'; input: SetDisabledInput; output: ManagedUser };
  'user.setLeader': { kind: 'mutation'; input: SetLeaderInput; output: ManagedUser };
  'user.setRole': { kind: 'mutation'; input: SetRoleInput; output: ManagedUser };
  'user.settings': { kind: 'query'; input: void; output: UserSettings };
  'user.updateEmailPreferences': { kind: 'mutation'; input: EmailPreferences; output: EmailPreferences };
  'user.updateProfile': { kind: 'mutation'; input: UpdateProfileInput; output: Profile };
  'user.uploadFile': { kind: 'mutation'; input: UploadFileInput; output: UploadTicket };
  'voiceNote.delete': { kind: 'mutation'; input: VoiceNoteId; output: VoiceNoteId };
  'voiceNote.list': { kind: 'query'; input: VoiceNoteListInput | null; output: VoiceNotePage };
  'voiceNote.rename': { kind: 'mutation'; input: RenameVoiceNoteInput; output: RenamedVoiceNote };
  'voiceNote.transcribe': { kind: 'mutation'; input: VoiceNoteId; output: VoiceNoteId };
}

export type RpcPath = keyof RpcProcedures;
export type RpcInput<P extends RpcPath> = RpcProcedures[P]['input'];
export type RpcOutput<P extends RpcPath> = RpcProcedures[P]['output'];
