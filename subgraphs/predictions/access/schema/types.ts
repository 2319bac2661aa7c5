import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum PlanCodeEnum {
  free = 'free',
  pro = 'pro',
  enterprise = 'enterprise',
}
registerEnumType(PlanCodeEnum, { name: 'PlanCode', description: 'Free (50 requests/day), Pro (5,000/day), Enterprise (custom per key)' });

export enum KeyRole {
  client = 'client',
  admin = 'admin',
}
registerEnumType(KeyRole, { name: 'ApiKeyRole' });

@ObjectType({ simpleResolvers: true, description: 'A plan of the prediction API and its daily allowance.' })
export class Plan {
  @Field(() => PlanCodeEnum) code: PlanCodeEnum;
  @Field() name: string;
  @Field(() => Int, { nullable: true, description: 'Requests per UTC day; null: set per key.' }) dailyLimit: number | null;
  @Field() description: string;
}

@ObjectType({ simpleResolvers: true, description: 'An API key. The key itself is only ever shown once, at creation.' })
export class ApiKey {
  @Field(() => ID) id: string;
  @Field({ description: 'Public prefix of the key, e.g. mpk_AbCd1234' }) prefix: string;
  @Field() name: string;
  @Field(() => String, { nullable: true }) email: string | null;
  @Field(() => KeyRole) role: KeyRole;
  @Field(() => PlanCodeEnum) plan: PlanCodeEnum;
  @Field(() => Int, { nullable: true, description: 'Limit in force for this key; null: unlimited.' }) dailyLimit: number | null;
  @Field(() => Int, { description: 'Requests counted today (UTC).' }) usedToday: number;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) revokedAt: Date | null;
  @Field(() => Date, { nullable: true }) lastUsedAt: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class CreatedApiKey {
  @Field({ description: 'The full key. Shown once; only its hash is stored.' }) key: string;
  @Field(() => ApiKey) apiKey: ApiKey;
}

@ObjectType({ simpleResolvers: true, description: 'The key making this request.' })
export class Viewer {
  @Field() prefix: string;
  @Field() name: string;
  @Field(() => KeyRole) role: KeyRole;
  @Field(() => PlanCodeEnum) plan: PlanCodeEnum;
}

@InputType()
export class CreateApiKeyInput {
  @Field() name: string;
  @Field(() => PlanCodeEnum, { defaultValue: PlanCodeEnum.free }) plan: PlanCodeEnum;
  @Field(() => KeyRole, { defaultValue: KeyRole.client }) role: KeyRole;
  @Field(() => Int, { nullable: true, description: 'Enterprise only: requests per day.' }) dailyLimit?: number | null;
  @Field(() => String, { nullable: true }) email?: string | null;
}

/** What the gateway learns when it verifies a key. Internal: not part of the public API. */
@Directive('@inaccessible')
@ObjectType({ simpleResolvers: true })
export class KeyAuthentication {
  @Field(() => ID) keyId: string;
  @Field() prefix: string;
  @Field() name: string;
  @Field(() => KeyRole) role: KeyRole;
  @Field(() => PlanCodeEnum) plan: PlanCodeEnum;
  @Field(() => Int, { nullable: true }) limit: number | null;
  @Field(() => Int, { nullable: true }) remaining: number | null;
  @Field(() => Date, { nullable: true }) resetAt: Date | null;
}
