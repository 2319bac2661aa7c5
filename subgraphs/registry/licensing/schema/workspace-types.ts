import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { WorkspaceRoleEnum } from './types';

export enum FrontendBuildStatusEnum {
  queued = 'queued',
  running = 'running',
  succeeded = 'succeeded',
  failed = 'failed',
}
registerEnumType(FrontendBuildStatusEnum, { name: 'FrontendBuildStatus' });

export enum BuildPackageEnum {
  frontend = 'frontend',
  android = 'android',
  ios = 'ios',
}
registerEnumType(BuildPackageEnum, { name: 'BuildPackage', description: 'frontend: the .docker.tar.gz image; android: APK or project archive; ios: Xcode project archive.' });

@ObjectType({ simpleResolvers: true })
export class WorkspaceOrganisation {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field(() => [String]) entitlements: string[];
}

@ObjectType({ simpleResolvers: true, description: 'The signed-in workspace user.' })
export class WorkspaceAccount {
  @Field(() => ID) userId: string;
  @Field() email: string;
  @Field() name: string;
  @Field(() => WorkspaceRoleEnum) role: WorkspaceRoleEnum;
  @Field(() => WorkspaceOrganisation) organisation: WorkspaceOrganisation;
}

@ObjectType({ simpleResolvers: true })
export class WorkspaceSession {
  @Field({ description: 'The session token (cookie workspace_session).' }) session: string;
  @Field() expiresAt: Date;
}

@ObjectType({ simpleResolvers: true })
export class WorkspaceSessionAuthentication {
  @Field(() => ID) userId: string;
  @Field(() => ID) organisationId: string;
  @Field() email: string;
  @Field() name: string;
  @Field() role: string;
}

@ObjectType({ simpleResolvers: true })
export class WorkspaceInvitation {
  @Field(() => ID) userId: string;
  @Field() email: string;
  @Field(() => WorkspaceRoleEnum) role: WorkspaceRoleEnum;
}

@ObjectType({ simpleResolvers: true, description: 'A colour with its WCAG contrast ratios and the text colour to put on it.' })
export class ColourContrast {
  @Field() colour: string;
  @Field(() => Float) againstWhite: number;
  @Field(() => Float) againstBlack: number;
  @Field() textColour: string;
}

@ObjectType({ simpleResolvers: true })
export class BrandingAsset {
  @Field() contentType: string;
  @Field(() => Int) size: number;
  @Field() sha256: string;
}

@ObjectType({ simpleResolvers: true, description: 'One saved version of an organisation’s whitelabel branding.' })
export class Branding {
  @Field(() => Int) version: number;
  @Field() displayName: string;
  @Field() primaryColor: string;
  @Field() accentColor: string;
  @Field(() => String, { nullable: true }) logoUrl: string | null;
  @Field(() => BrandingAsset, { nullable: true }) logo: BrandingAsset | null;
  @Field(() => String, { nullable: true }) faviconUrl: string | null;
  @Field(() => BrandingAsset, { nullable: true }) favicon: BrandingAsset | null;
  @Field(() => String, { nullable: true, description: 'The finance node’s public https address: where the mobile apps open the client.' })
  publicUrl: string | null;
  @Field(() => ColourContrast) primaryContrast: ColourContrast;
  @Field(() => ColourContrast) accentContrast: ColourContrast;
  @Field() createdAt: Date;
  @Field() createdBy: string;
}

@ObjectType({ simpleResolvers: true })
export class BuiltPackageInfo {
  @Field() filename: string;
  @Field() contentType: string;
  @Field(() => Float) size: number;
  @Field() sha256: string;
  @Field(() => String, { nullable: true }) image: string | null;
  @Field(() => String, { nullable: true }) imageId: string | null;
  @Field(() => String, { nullable: true, description: 'Android: apk or project.' }) kind: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A custom frontend build (web image, Android and iOS packages) of an organisation’s branding.' })
export class FrontendBuild {
  @Field(() => ID) id: string;
  @Field(() => ID) organisationId: string;
  @Field(() => Int) brandingVersion: number;
  @Field(() => FrontendBuildStatusEnum) status: FrontendBuildStatusEnum;
  @Field(() => Int, { description: '0 to 100' }) progress: number;
  @Field(() => [String]) log: string[];
  @Field(() => String, { nullable: true, description: 'Why it failed.' }) error: string | null;
  @Field(() => BuiltPackageInfo, { nullable: true }) frontend: BuiltPackageInfo | null;
  @Field(() => BuiltPackageInfo, { nullable: true }) android: BuiltPackageInfo | null;
  @Field(() => BuiltPackageInfo, { nullable: true }) ios: BuiltPackageInfo | null;
  @Field() requestedBy: string;
  @Field() createdAt: Date;
  @Field(() => Date, { nullable: true }) finishedAt: Date | null;
}

@InputType()
export class SaveBrandingInput {
  @Field() displayName: string;
  @Field() primaryColor: string;
  @Field() accentColor: string;
  @Field(() => String, { nullable: true, description: 'http(s) URL, fetched once and stored.' }) logoUrl?: string | null;
  @Field(() => String, { nullable: true }) faviconUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'Uploaded logo, base64 (instead of logoUrl).' }) logoBase64?: string | null;
  @Field(() => String, { nullable: true, description: 'Uploaded favicon, base64 (instead of faviconUrl).' }) faviconBase64?: string | null;
  @Field(() => String, { nullable: true, description: 'The finance node’s public https address, where the mobile apps open the client.' })
  publicUrl?: string | null;
}

@InputType()
export class InviteWorkspaceUserInput {
  @Field() email: string;
  @Field() name: string;
  @Field(() => WorkspaceRoleEnum, { nullable: true }) role?: WorkspaceRoleEnum | null;
}
