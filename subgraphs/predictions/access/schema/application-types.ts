import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PlanCodeEnum } from './types';

export enum ApplicationStatusEnum {
  unconfirmed = 'unconfirmed',
  pending = 'pending',
  approved = 'approved',
  rejected = 'rejected',
}
registerEnumType(ApplicationStatusEnum, {
  name: 'AccessApplicationStatus',
  description:
    'unconfirmed (the applicant has not used the link mailed to the address yet) → pending (for review) → approved (a key is issued and mailed) or rejected; a decision is final.',
});

export enum ApplicationSourceEnum {
  form = 'form',
  email = 'email',
}
registerEnumType(ApplicationSourceEnum, { name: 'AccessApplicationSource', description: 'The online form (or its JSON variant), or an e-mail with the subject "API Access Request".' });

@ObjectType({ simpleResolvers: true, description: 'An application for an API key (administrators). The issued key is never shown, only its prefix.' })
export class AccessApplication {
  @Field(() => ID) id: string;
  @Field({ description: 'Name or organisation' }) name: string;
  @Field({ description: 'Contact e-mail address; the key is sent there' }) email: string;
  @Field({ description: 'Intended usage (project or integration)' }) usage: string;
  @Field(() => ApplicationSourceEnum) source: ApplicationSourceEnum;
  @Field(() => ApplicationStatusEnum) status: ApplicationStatusEnum;
  @Field(() => PlanCodeEnum, { nullable: true, description: 'Plan of the issued key (approved only)' }) plan: PlanCodeEnum | null;
  @Field(() => String, { nullable: true, description: 'Public prefix of the issued key (approved only)' }) keyPrefix: string | null;
  @Field(() => Date, { nullable: true }) decidedAt: Date | null;
  @Field(() => String, { nullable: true, description: 'The administrator key (name and prefix) or CLI user that decided' }) decidedBy: string | null;
  @Field(() => String, { nullable: true }) rejectionReason: string | null;
  @Field(() => Date, { nullable: true, description: 'When the applicant confirmed the e-mail address (the link mailed to it)' }) confirmedAt: Date | null;
  @Field() createdAt: Date;
}

@ObjectType({
  simpleResolvers: true,
  description:
    'What an applicant learns about a submitted application: that it was received, nothing more (anyone may submit any address: no reference, no status).',
})
export class AccessApplicationReceipt {
  @Field({ description: 'A sentence for the applicant' }) message: string;
}

export enum ConfirmationStateEnum {
  ready = 'ready',
  confirmed = 'confirmed',
  invalid = 'invalid',
}
registerEnumType(ConfirmationStateEnum, {
  name: 'AccessConfirmationState',
  description: 'A confirmation link: not used yet (ready), used (the address is confirmed), or unknown or expired (invalid).',
});

@ObjectType({ simpleResolvers: true, description: 'Where to apply by e-mail: the built-in SMTP mailbox, and what it took in since its process started.' })
export class ApplicationMailboxInfo {
  @Field({ description: 'The address to write to, subject "API Access Request".' }) address: string;
  @Field({ description: 'Host of its SMTP receiver.' }) smtpHost: string;
  @Field(() => Int, { nullable: true, description: 'Port of its SMTP receiver; null when it is off (APPLICATION_SMTP_PORT=off, or the default port 2525 was taken at start).' }) smtpPort: number | null;
  @Field(() => Int) received: number;
  @Field(() => Int, { description: 'Mail that became an application.' }) applications: number;
  @Field(() => Int, { description: 'Mail without the subject "API Access Request": dropped.' }) ignored: number;
  @Field(() => Int, { description: 'Applications refused, with their reason, in the SMTP answer.' }) refused: number;
}

@ObjectType({ simpleResolvers: true, description: "An e-mail confirmation link, as its holder (the applicant's mailbox) sees it." })
export class AccessApplicationConfirmation {
  @Field(() => ConfirmationStateEnum) state: ConfirmationStateEnum;
  @Field(() => String, { nullable: true, description: 'The name or organisation on the application (not for invalid links)' }) name: string | null;
}

@InputType({ description: 'The fields of the application form.' })
export class AccessApplicationInput {
  @Field({ description: 'Name or organisation (2–200 characters)' }) name: string;
  @Field({ description: 'Intended usage: the project or integration (10–2,000 characters)' }) usage: string;
  @Field({ description: 'Contact e-mail address' }) email: string;
}
