import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { KYC_LEVELS, type KycLevel } from '../../kernel/kyc';

/** The GraphQL enum of the KYC levels (from the one list in identity/credential.ts). */
export const NodeKycLevel = Object.fromEntries(KYC_LEVELS.map((l) => [l.toUpperCase(), l])) as { [L in KycLevel as Uppercase<L>]: L };
export type NodeKycLevel = KycLevel;
registerEnumType(NodeKycLevel, { name: 'NodeKycLevel' });

@ObjectType({ simpleResolvers: true, description: 'An access token for the finance node (Authorization: Bearer <access>).' })
export class NodeAccessToken {
  @Field() access: string;
  @Field({ description: 'Always "Bearer"' }) tokenType: string;
  @Field(() => Int, { description: 'Seconds until the token expires (no refresh token: sign in again).' }) expiresIn: number;
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, description: 'A finance node user (an entity: other subgraphs refer to it by id).' })
export class NodeUser {
  @Field(() => ID) id: string;
  @Field() username: string;
  @Field() email: string;
  @Field() isSuperuser: boolean;
  @Field() isActive: boolean;
  @Field() twoFactorEnabled: boolean;
  @Field({ description: 'Support staff: may sign in to the admin console with the support role (users, disputes, KYC reviews).' }) isStaff: boolean;
  @Field() dateJoined: Date;
  @Field(() => Date, { nullable: true }) lastLogin: Date | null;
  @Field(() => NodeKycLevel, { description: 'Identity verification: NONE, BASIC or ENHANCED (the limits of money movement follow it).' })
  kycLevel: NodeKycLevel;
  @Field(() => String, {
    nullable: true,
    description: 'E.164 phone number ("+447911123456"), verified or pending (phoneVerified); a verified number is unique and transfers can name the user by it.',
  })
  phone: string | null;
  @Field({ description: 'Whether the phone number is verified (a code sent to it, or set by an operator); only verified numbers receive transfers.' })
  phoneVerified: boolean;
  @Field({ description: 'Whether the user proved their e-mail address (signed-up users must before money moves).' })
  emailVerified: boolean;
}

@ObjectType({ simpleResolvers: true, description: "A user's phone number and its verification." })
export class NodePhone {
  @Field() username: string;
  @Field(() => String, { nullable: true, description: 'E.164; null when none.' }) phone: string | null;
  @Field({ description: 'Verified: it receives transfers. Not yet: a code was sent to it (verifyMyPhone).' }) verified: boolean;
  @Field(() => Date, { nullable: true, description: 'When the code just sent expires (null when no code was sent).' }) codeExpiresAt: Date | null;
}

@ObjectType({ simpleResolvers: true, description: 'A text message of the offline sandbox SMS provider (administrators; never sent).' })
export class NodeSandboxSms {
  @Field(() => ID) id: string;
  @Field() to: string;
  @Field() body: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A mail or text message of the development outbox.' })
export class NodeOutboxMessage {
  @Field(() => ID) id: string;
  @Field({ description: '`mail` or `sms`.' }) channel: string;
  @Field({ description: 'email_verify, signup_address_held, password_reset, phone_code…' }) kind: string;
  @Field() sentAt: Date;
  @Field(() => String, { nullable: true, description: "A mail's sender (display name and address)." }) from: string | null;
  @Field() to: string;
  @Field() subject: string;
  @Field() body: string;
}

@ObjectType({ simpleResolvers: true, description: 'The user a transfer names (service principals only: the payments module).' })
export class NodeRecipient {
  @Field(() => ID) id: string;
  @Field() username: string;
  @Field({ description: 'Whether the user passed identity verification (KYC basic or above): the send confirmation says so.' }) verified: boolean;
}

@ObjectType({ simpleResolvers: true })
export class NodeUserStats {
  @Field(() => Int) total: number;
  @Field(() => Int) active: number;
  @Field(() => Int) superusers: number;
  @Field(() => Int) twoFactor: number;
}

@ObjectType({ simpleResolvers: true })
export class NodeSignIn {
  @Field() username: string;
  @Field() at: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A started 2FA enrolment: add the secret to an authenticator app (or open the otpauth URI), then confirm with a code.' })
export class TotpEnrolment {
  @Field() secret: string;
  @Field() otpauthUri: string;
  @Field({ description: 'The otpauth:// URI as a QR code to scan with the authenticator app: an SVG image as a data: URI.' }) qrCode: string;
}

@ObjectType({ simpleResolvers: true, description: "The console's 2FA enrolment: the secret for the authenticator app, and the token that confirms it with a code." })
export class AdminTotpEnrolment {
  @Field() secret: string;
  @Field() otpauthUri: string;
  @Field({ description: 'The otpauth:// URI as a QR code: an SVG image as a data: URI.' }) qrCode: string;
  @Field() enrolmentToken: string;
  @Field(() => Int) expiresIn: number;
}

@ObjectType({
  simpleResolvers: true,
  description: 'An admin console sign-in: the session (the value of the sessionid cookie), or, when 2FA is enforced and the superuser is not enrolled yet, the enrolment to confirm first (no session).',
})
export class NodeAdminSession {
  @Field(() => String, { nullable: true }) session: string | null;
  @Field() username: string;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field(() => AdminTotpEnrolment, { nullable: true }) enrolment: AdminTotpEnrolment | null;
}

/** What the gateway learns when it verifies an access token. Internal. */
@Directive('@inaccessible')
@ObjectType({ simpleResolvers: true })
export class NodeTokenAuthentication {
  @Field(() => ID) userId: string;
  @Field() username: string;
  @Field() scope: string;
  @Field() kycLevel: string;
  @Field() emailVerified: boolean;
  @Field(() => String, { nullable: true }) sessionId: string | null;
}

/** What the gateway learns when it verifies an admin session. Internal. */
@Directive('@inaccessible')
@ObjectType({ simpleResolvers: true })
export class AdminSessionAuthentication {
  @Field(() => ID) userId: string;
  @Field() username: string;
  @Field({ description: 'superuser, or support (support staff: users, disputes and KYC reviews only)' }) role: string;
}

@ObjectType({ simpleResolvers: true, description: 'A user who just signed up: their e-mail address is not verified yet.' })
export class NodeSignup {
  @Field(() => ID) id: string;
  @Field() username: string;
  @Field() email: string;
  @Field() emailVerified: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'A sign-in session of the caller (one per sign-in; its access token ends with it).' })
export class NodeSession {
  @Field(() => ID) id: string;
  @Field() createdAt: Date;
  @Field() lastSeenAt: Date;
  @Field() expiresAt: Date;
  @Field() userAgent: string;
  @Field() ip: string;
  @Field({ description: 'The session of the token that asks.' }) current: boolean;
}

@ObjectType({ simpleResolvers: true, description: '2FA is on: sign-in needs a code; the recovery codes are shown this once.' })
export class TotpConfirmation {
  @Field() username: string;
  @Field() twoFactorEnabled: boolean;
  @Field(() => [String], { description: 'Ten one-time recovery codes: each replaces a one-time code once.' }) recoveryCodes: string[];
}

@ObjectType({ simpleResolvers: true, description: 'An invitation to sign up (the code itself is shown only when it is created).' })
export class NodeInvite {
  @Field(() => ID) id: string;
  @Field({ description: 'The last four characters of the code.' }) hint: string;
  @Field() note: string;
  @Field() createdBy: string;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) expiresAt: Date | null;
  @Field(() => Date, { nullable: true }) usedAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class NodeInviteCreated {
  @Field({ description: 'The code to give the invitee (shown once).' }) code: string;
  @Field(() => NodeInvite) invite: NodeInvite;
}
